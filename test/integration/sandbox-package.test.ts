import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox, SandboxOptions } from "../../clients/sandbox/types/index";
import { eventually } from "../support/fixtures";
import { docBlock } from "../support/readme";
import { startReceiver } from "../support/receiver";
import { folderOwner, installSandboxPackage, listening, ownSandboxFolders, sandboxApi, sandboxFolders, shellEnv } from "../support/sandbox-package";
import { assertPresent, present } from "../../scripts/harness/present";

// @sandpiper/sandbox as a merchant's test suite meets it (docs/guides/test-in-your-own-suite.md): the tarball that
// `npm run pack:clients` builds, installed alone into an empty project outside the clone with the registry switched
// off, then started from that project, by startSandpiper() in this process, by a process that is killed, and by its
// command. Every answer of the API calls below is checked against the OpenAPI document.

const root = path.resolve(__dirname, "../..");
const GUIDE = "docs/guides/test-in-your-own-suite.md";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-sandbox-pkg-"));
const project = path.join(scratch, "project");
let startSandpiper: (options?: SandboxOptions) => Promise<Sandbox>;
const started: Sandbox[] = [];

/** startSandpiper of the installed package; every sandbox is stopped after the file. */
async function start(options?: SandboxOptions): Promise<Sandbox> {
  const sandbox = await startSandpiper(options);
  started.push(sandbox);
  return sandbox;
}

/** One API call to `sandbox` as its merchant, its answer checked against the OpenAPI document. */
const api = (sandbox: Sandbox, method: string, route: string, body?: unknown, key = sandbox.apiKey) => sandboxApi(sandbox.url, key, method, route, body);

const deposit = (reference: string, amount = "10.00") => ({ reference, amount, currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });

/** The ids of the processes running the installed package's sandbox process. */
function sandboxProcesses(): number[] {
  const entry = path.join(project, "node_modules", "@sandpiper", "sandbox", "dist", "app", "sandbox-child.mjs");
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(entry);
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

beforeAll(async () => {
  ({ startSandpiper } = await installSandboxPackage(scratch));
}, 900_000); // this file packs the tarball first in a run (the other files that install it wait and reuse it): minutes on a busy machine

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("startSandpiper() from the installed tarball", () => {
  let sandbox: Sandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    // The first callback attempt answers 500: the retry (fast retries: 0.5 s later) is answered 200.
    receiver = await startReceiver((_r, index) => (index === 0 ? { status: 500 } : {}));
    sandbox = await start({ callbackUrl: receiver.url, scenarioRules: "standard" });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.stop();
    await receiver?.close();
  });

  it("serves: a payment created with apiKey is read, listed and concluded; its callback reaches callbackUrl, is retried and verifies", async () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.callbackSecret).toMatch(/^whsec_/);
    const created = await api(sandbox, "POST", "/v1/payments", deposit("order-1"));
    expect(created).toMatchObject({ status: 201, body: { status: "PENDING", merchantId: sandbox.merchantId } });
    const id = created.body.id as string;
    expect(await api(sandbox, "GET", `/v1/payments/${id}`)).toMatchObject({ status: 200, body: { id } });
    expect(await api(sandbox, "GET", "/v1/payments?limit=10")).toMatchObject({ status: 200, body: { total: 1, items: [{ id }] } });
    expect(await api(sandbox, "POST", `/v1/sandbox/payments/${id}/complete`, { outcome: "SUCCEEDED" })).toMatchObject({
      status: 200,
      body: { status: "SUCCEEDED" },
    });

    const [first, second] = await receiver.waitFor(2);
    assertPresent(second, "second");
    assertPresent(first, "first");
    expect(second?.body.equals(first?.body), "the retry carries the same body").toBe(true);
    const verified = new Webhook(sandbox.callbackSecret!).verify(second.body.toString("utf8"), second.headers as Record<string, string>) as {
      type: string;
      data: { id: string };
    };
    expect(verified).toMatchObject({ type: "payment.succeeded", data: { id } });
    const events = await api(sandbox, "GET", `/v1/events?paymentId=${id}`);
    const event = await eventually(async () => {
      const e = await api(sandbox, "GET", `/v1/events/${events.body.items[0].id}`);
      return e.body.delivery.deliveries.at(-1)?.state === "SUCCEEDED" && e;
    });
    expect(event.body.delivery.deliveries.at(-1).attempts.length).toBe(2);
    // The typed client is pointed at the sandbox with its key.
    expect((await sandbox.client.getPayment({ params: { path: { id } } })).status).toBe("SUCCEEDED");
  });

  it("declines a payment by a standard scenario rule", async () => {
    const created = await api(sandbox, "POST", "/v1/payments", deposit("rule-1", "13.13"));
    const id = created.body.id as string;
    const failed = await eventually(async () => {
      const p = await api(sandbox, "GET", `/v1/payments/${id}`);
      return p.body.status === "FAILED" && p;
    });
    expect(failed.body.scenario).toMatchObject({ name: "Amount 13.13 fails", outcome: "FAILED" });
  });

  it("expires a pending payment on clock.advance('72h'), within 10 s; clock.reset() goes back to the real clock", async () => {
    const id = (await api(sandbox, "POST", "/v1/payments", deposit("late-1"))).body.id as string;
    const before = Date.now();
    await sandbox.clock.advance("72h");
    const expired = await api(sandbox, "GET", `/v1/payments/${id}`);
    expect(Date.now() - before).toBeLessThan(10_000);
    expect(expired.body.status).toBe("EXPIRED");
    expect((await api(sandbox, "GET", "/v1/sandbox/clock")).body.offsetMs).toBe(72 * 3_600_000);
    await sandbox.clock.reset();
    expect((await api(sandbox, "GET", "/v1/sandbox/clock")).body.offsetMs).toBe(0);
    await expect(sandbox.clock.advance(1500)).rejects.toThrow(/whole seconds/);
  });

  it("loads a customer checkout page in Chromium from its URL", async () => {
    const session = await api(
      sandbox,
      "POST",
      "/v1/checkout-sessions",
      { reference: "page-1", customer: { id: "cust-1", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", phone: "+971501234567" } },
      sandbox.keys.amountEntry,
    );
    expect(session.status).toBe(201);
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
    try {
      const page = await browser.newPage();
      const res = await page.goto(session.body.customerCheckout.url);
      expect(res?.status()).toBe(200);
      await expect.poll(() => page.getByRole("button").count()).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });

  it("reset() empties payments, events and the clock, well inside a test runner's hook limit; the keys and the callback secret stay", async () => {
    await sandbox.clock.advance("2h");
    const t = performance.now();
    await sandbox.reset();
    // Its speed is measured in docs/benchmarks.md; here only that it stays far from vitest's and Jest's 5 to 10 s hook limits
    // on a loaded machine (0.3 to 1.7 s seen under load).
    expect(performance.now() - t).toBeLessThan(4_000);
    expect(await api(sandbox, "GET", "/v1/payments")).toMatchObject({ status: 200, body: { total: 0, items: [] } });
    expect((await api(sandbox, "GET", "/v1/events")).body.items).toEqual([]);
    expect((await api(sandbox, "GET", "/v1/sandbox/clock")).body.offsetMs).toBe(0);
    expect((await api(sandbox, "GET", "/v1/sandbox/scenario-rules")).body.total).toBe(6);
    // The callback secret is the same: the callback of a payment concluded after the reset verifies with it.
    const id = (await api(sandbox, "POST", "/v1/payments", deposit("ok-after-reset"))).body.id as string;
    const webhook = new Webhook(sandbox.callbackSecret!);
    await eventually(async () =>
      receiver.received.some((r) => (webhook.verify(r.body.toString("utf8"), r.headers as Record<string, string>) as { data: { id: string } }).data.id === id),
    );
  });
});

describe("several sandboxes", () => {
  it("three started at once serve on three ports with separate data; stop() closes each port and removes each folder", async () => {
    const before = new Set(ownSandboxFolders());
    const three = await Promise.all([start(), start(), start()]);
    const folders = ownSandboxFolders().filter((name) => !before.has(name));
    expect(folders).toHaveLength(3);
    const ports = three.map((s) => Number(new URL(s.url).port));
    expect(new Set(ports).size).toBe(3);
    await api(three[0], "POST", "/v1/payments", deposit("only-in-the-first"));
    const totals = await Promise.all(three.map(async (s) => (await api(s, "GET", "/v1/payments")).body.total));
    expect(totals).toEqual([1, 0, 0]);
    await Promise.all(three.map((s) => s.stop()));
    for (const port of ports) expect(await listening(port), `port ${port} after stop()`).toBe(false);
    expect(sandboxFolders().filter((name) => folders.includes(name))).toEqual([]);
  }, 120_000);

  it("refuses an unknown option with a clear error", async () => {
    await expect(startSandpiper({ callbackURL: "http://127.0.0.1:1/x" } as SandboxOptions)).rejects.toThrow(
      /unknown option "callbackURL"; the options are callbackUrl, port, scenarioRules, fastRetries, logLevel/,
    );
  });
});

describe("nothing left behind", () => {
  it("a process that started a sandbox and is killed with SIGKILL leaves no sandbox process, no open port and no folder", async () => {
    fs.writeFileSync(
      path.join(project, "killed.mjs"),
      'import { startSandpiper } from "@sandpiper/sandbox";\nconst s = await startSandpiper();\nconsole.log(s.url);\nsetInterval(() => {}, 1000);\n',
    );
    const before = new Set(sandboxProcesses());
    const foldersBefore = new Set(sandboxFolders());
    const child = spawn(process.execPath, ["killed.mjs"], { cwd: project, env: shellEnv(), stdio: ["ignore", "pipe", "inherit"] });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (text: string) => resolve(text.trim()));
      child.once("exit", (code) => reject(new Error(`killed.mjs ended with ${code}`)));
    });
    const port = Number(new URL(url).port);
    expect(await listening(port)).toBe(true);
    const its = () => sandboxProcesses().filter((pid) => !before.has(pid));
    expect(its()).toHaveLength(1);
    // Its folder: the one its sandbox's process owns (other test files start sandboxes of their own meanwhile).
    const folders = sandboxFolders().filter((name) => !foldersBefore.has(name) && folderOwner(name) === Number(its()[0]));
    expect(folders).toHaveLength(1);
    child.kill("SIGKILL");
    await eventually(async () => !(await listening(port)) && its().length === 0, 10_000);
    expect(fs.existsSync(path.join(os.tmpdir(), present(folders[0], "folders[0]"))), "its temporary folder").toBe(false);
  }, 120_000);

  it("the sandpiper-sandbox command prints one JSON line once it serves and stops on SIGTERM", async () => {
    const bin = path.join(project, "node_modules", ".bin", "sandpiper-sandbox");
    const child = spawn(bin, ["--port", "0", "--json"], { cwd: project, env: shellEnv(), stdio: ["pipe", "pipe", "inherit"] });
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        out += text;
        if (out.includes("\n")) resolve(present(out.split("\n")[0], 'out.split("\\n")[0]'));
      });
      child.once("exit", (code) => reject(new Error(`sandpiper-sandbox ended with ${code}`)));
    });
    const info = JSON.parse(line);
    expect(Object.keys(info).sort()).toEqual(["apiKey", "callbackSecret", "console", "keys", "merchantId", "sandboxToken", "url"]);
    expect(info.console.users.operator).toMatchObject({ username: "operator", password: expect.any(String) });
    const res = await fetch(`${info.url}/v1/payments`, { headers: { authorization: `Bearer ${info.apiKey}` } });
    expect(res.status).toBe(200);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await eventually(async () => !(await listening(Number(new URL(info.url).port))), 5_000);
  }, 120_000);
});

describe("the examples of docs/guides/test-in-your-own-suite.md, as written", () => {
  it("the vitest file passes against the installed package", () => {
    fs.writeFileSync(path.join(project, "payments.test.mjs"), docBlock(GUIDE, "// payments.test.mjs"));
    // The project's own test runner: vitest, as a merchant's project has it installed.
    fs.symlinkSync(path.join(root, "node_modules", "vitest"), path.join(project, "node_modules", "vitest"));
    try {
      const run = spawnSync(process.execPath, [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--root", project, "payments.test.mjs"], {
        cwd: project,
        env: shellEnv({ NO_COLOR: "1", FORCE_COLOR: "0" }),
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Tests\s+4 passed/);
    } finally {
      fs.rmSync(path.join(project, "node_modules", "vitest"));
    }
  }, 150_000);

  it("the Python example passes with python3 (standard library only), and its sandbox is gone afterwards", () => {
    fs.writeFileSync(path.join(project, "test_payments.py"), docBlock(GUIDE, "# test_payments.py"));
    const before = new Set(sandboxProcesses());
    const run = spawnSync("python3", ["-m", "unittest", "test_payments"], {
      cwd: project,
      env: shellEnv({ npm_config_offline: "true" }),
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Ran 1 test/);
    expect(sandboxProcesses().filter((pid) => !before.has(pid))).toEqual([]);
  }, 150_000);
});
