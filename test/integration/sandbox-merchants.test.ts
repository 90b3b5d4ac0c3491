import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxMerchant } from "@/lib/contract/schemas/api/sandbox-merchants";
import type { Sandbox, SandboxMerchant as MadeMerchant, SandboxOptions } from "../../clients/sandbox/types/index";
import { baseUrl } from "../support/fixtures";
import { docBlock } from "../support/readme";
import { startReceiver, type Received } from "../support/receiver";
import { installSandboxPackage, sandboxApi, sandboxFolders, shellEnv } from "../support/sandbox-package";
import { present } from "../../scripts/harness/present";
import { writeSandboxSuite } from "../../scripts/harness/sandbox-suite";

// A merchant per test (docs/guides/test-in-your-own-suite.md "A merchant per test"): one sandbox of the installed
// tarball for the whole file, merchants made in it over HTTP with the sandbox token and with sandbox.merchant(), each
// seeing only its own payments, events, callbacks and clock; the route in the suite's normal service; the command's
// standard input; what a start that fails, or a stopped sandbox, says.

const root = path.resolve(__dirname, "../..");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-sbx-merchants-"));
let startSandpiper: (options?: SandboxOptions) => Promise<Sandbox>;
let project: string;
let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

/** A merchant as a test holds it: its id, key and callback secret, and the callback address it was made with. */
type Merchant = { merchantId: string; apiKey: string; callbackSecret: string | null; callbackUrl: string };

/** One API call to the sandbox with `key`, its answer checked against the OpenAPI document. */
const api = (key: string, method: string, route: string, body?: unknown) => sandboxApi(sandbox.url, key, method, route, body);

/** POST /v1/sandbox/merchants of `url` with `authorization` (none when null) and `body`: status and JSON answer. */
async function makeOverHttp(url: string, authorization: string | null, body: unknown = {}) {
  const res = await fetch(`${url}/v1/sandbox/merchants`, {
    method: "POST",
    headers: { ...(authorization === null ? {} : { authorization }), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const deposit = (reference: string, amount = "10.00") => ({ reference, amount, currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });

beforeAll(async () => {
  ({ project, startSandpiper } = await installSandboxPackage(scratch));
  receiver = await startReceiver();
  sandbox = await startSandpiper({ logLevel: "warn" });
}, 600_000);

afterAll(async () => {
  await sandbox?.stop();
  await receiver?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("40 merchants in one sandbox", () => {
  const merchants: Merchant[] = [];

  beforeAll(async () => {
    // 20 over HTTP with the sandbox token, as any language makes them, and 20 with sandbox.merchant(), one at a time.
    for (let i = 0; i < 20; i++) {
      const callbackUrl = `${receiver.origin}/http-${i}`;
      const made = await makeOverHttp(sandbox.url, `Bearer ${sandbox.sandboxToken}`, { callbackUrl });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const body = SandboxMerchant.parse(made.body);
      expect(made.headers.get("cache-control")).toBe("no-store");
      merchants.push({ ...body, callbackUrl });
    }
    for (let i = 0; i < 20; i++) {
      const callbackUrl = `${receiver.origin}/js-${i}`;
      const made: MadeMerchant = await sandbox.merchant({ callbackUrl });
      merchants.push({ ...made, callbackUrl });
    }
  }, 120_000);

  it("each has its own id and keys, and the keys of every scope work", async () => {
    expect(new Set(merchants.map((m) => m.merchantId)).size).toBe(40);
    expect(new Set(merchants.map((m) => m.apiKey)).size).toBe(40);
    expect(merchants.every((m) => m.merchantId !== sandbox.merchantId && /^whsec_/.test(m.callbackSecret ?? ""))).toBe(true);
  });

  it("each sees only its own payments and events; each callback reaches its own address and verifies with its own secret only", async () => {
    // The same reference for every merchant: each is its own world.
    const ids = await Promise.all(merchants.map(async (m) => (await api(m.apiKey, "POST", "/v1/payments", deposit("order-1"))).body.id as string));
    for (const [i, m] of merchants.entries()) {
      const list = await api(m.apiKey, "GET", "/v1/payments");
      expect(list.body).toMatchObject({ total: 1, items: [{ id: ids[i], merchantId: m.merchantId }] });
    }
    expect((await api(sandbox.apiKey, "GET", "/v1/payments")).body.total).toBe(0);
    await Promise.all(merchants.map((m, i) => api(m.apiKey, "POST", `/v1/sandbox/payments/${ids[i]}/complete`, { outcome: "SUCCEEDED" })));
    await receiver.waitFor(40, 30_000);
    for (const [i, m] of merchants.entries()) {
      const events = await api(m.apiKey, "GET", "/v1/events");
      expect(events.body.items.map((e: { data: { id: string } }) => e.data.id)).toEqual([ids[i]]);
      const path = new URL(m.callbackUrl).pathname;
      const mine = receiver.received.filter((r: Received) => r.path === path);
      expect(mine, `callbacks at ${path}`).toHaveLength(1);
      const callback = present(mine[0], "mine[0]");
      const verified = new Webhook(m.callbackSecret!).verify(callback.body.toString("utf8"), callback.headers as Record<string, string>) as {
        data: { id: string; merchantId: string };
      };
      expect(verified.data).toMatchObject({ id: ids[i], merchantId: m.merchantId });
      const other = present(merchants[(i + 1) % merchants.length], "other");
      expect(() => new Webhook(other.callbackSecret!).verify(callback.body.toString("utf8"), callback.headers as Record<string, string>)).toThrow();
    }
  }, 120_000);

  it("a merchant's clock advance expires only its own payments", async () => {
    const [a, b] = [present(merchants[0], "a"), present(merchants[39], "b")];
    const pendingA = (await api(a.apiKey, "POST", "/v1/payments", deposit("late-1"))).body.id as string;
    const pendingB = (await api(b.apiKey, "POST", "/v1/payments", deposit("late-1"))).body.id as string;
    const made = await sandbox.merchant();
    const pendingC = (await made.client.createPayment({ body: deposit("late-1") as never })).id;
    await made.clock.advance("72h");
    expect((await made.client.getPayment({ params: { path: { id: pendingC } } })).status).toBe("EXPIRED");
    expect((await api(a.apiKey, "GET", `/v1/payments/${pendingA}`)).body.status).toBe("PENDING");
    expect((await api(b.apiKey, "GET", `/v1/payments/${pendingB}`)).body.status).toBe("PENDING");
    expect((await api(made.apiKey, "GET", "/v1/sandbox/clock")).body.offsetMs).toBe(72 * 3_600_000);
    expect((await api(a.apiKey, "GET", "/v1/sandbox/clock")).body.offsetMs).toBe(0);
    await made.clock.reset();
    expect((await api(made.apiKey, "GET", "/v1/sandbox/clock")).body.offsetMs).toBe(0);
  }, 60_000);

  it("a suite's thousands of requests a minute from one address and one key are not rate limited", async () => {
    // Beyond the service's default limits (600 a minute per address, 300 per key): 700 reads with one key, 7 at a time.
    const [m] = merchants;
    const statuses: number[] = [];
    for (let round = 0; round < 700 / 7; round++) {
      const answers = await Promise.all(
        Array.from({ length: 7 }, () => fetch(`${sandbox.url}/v1/payments?limit=1`, { headers: { authorization: `Bearer ${m!.apiKey}` } })),
      );
      for (const answer of answers) {
        statuses.push(answer.status);
        await answer.body?.cancel();
      }
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }, 120_000);

  it("scenarioRules and fastRetries apply to the new merchant only", async () => {
    const made = await sandbox.merchant({ scenarioRules: "standard", fastRetries: false });
    expect((await api(made.apiKey, "GET", "/v1/sandbox/scenario-rules")).body.total).toBe(6);
    expect((await api(made.apiKey, "GET", "/v1/sandbox/settings")).body.fastRetries).toBe(false);
    expect((await api(present(merchants[0], "m").apiKey, "GET", "/v1/sandbox/scenario-rules")).body.total).toBe(0);
    expect((await api(present(merchants[0], "m").apiKey, "GET", "/v1/sandbox/settings")).body.fastRetries).toBe(true);
    const readOnly = await api(made.keys.readOnly, "POST", "/v1/payments", deposit("ro-1"));
    expect(readOnly.body.error.code).toBe("INSUFFICIENT_SCOPE");
  });
});

describe("POST /v1/sandbox/merchants refuses", () => {
  it("a wrong or missing token with 401, another method with 405, bad options with 400, each in the error envelope", async () => {
    const wrong = await makeOverHttp(sandbox.url, `Bearer ${sandbox.sandboxToken}x`);
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: "INVALID_API_KEY", message: expect.stringMatching(/sandboxToken/) } } });
    expect((await makeOverHttp(sandbox.url, null)).status).toBe(401);
    expect((await makeOverHttp(sandbox.url, `Bearer ${sandbox.apiKey}`)).status).toBe(401);
    const get = await fetch(`${sandbox.url}/v1/sandbox/merchants`, { headers: { authorization: `Bearer ${sandbox.sandboxToken}` } });
    expect(get.status).toBe(405);
    const unknown = await makeOverHttp(sandbox.url, `Bearer ${sandbox.sandboxToken}`, { callbackURL: "http://127.0.0.1:1/x" });
    expect(unknown).toMatchObject({
      status: 400,
      body: { error: { code: "VALIDATION_ERROR", message: expect.stringMatching(/unknown property: callbackURL/) } },
    });
    const rules = await makeOverHttp(sandbox.url, `Bearer ${sandbox.sandboxToken}`, { scenarioRules: "all" });
    expect(rules.body.error.message).toMatch(/scenarioRules: must be one of standard, none/);
    const address = await makeOverHttp(sandbox.url, `Bearer ${sandbox.sandboxToken}`, { callbackUrl: "http://10.0.0.1/callbacks" });
    expect(address).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_ERROR", message: expect.stringMatching(/^callbackUrl: /) } } });
  });

  it("sandbox.merchant() refuses an unknown option or value as startSandpiper() does, before any request", async () => {
    await expect(sandbox.merchant({ port: 0 } as never)).rejects.toThrow(
      /sandbox\.merchant: unknown option "port"; the options are callbackUrl, scenarioRules, fastRetries/,
    );
    await expect(sandbox.merchant({ fastRetries: "yes" } as never)).rejects.toThrow(/fastRetries must be true or false, got "yes"/);
  });

  it("in the service started any other way: 404 exactly as an unknown /v1 route", async () => {
    const route = await makeOverHttp(baseUrl(), `Bearer ${sandbox.sandboxToken}`);
    const unknown = await fetch(`${baseUrl()}/v1/no-such-route`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    const unknownBody = await unknown.json();
    expect(route.status).toBe(404);
    expect(route.body.error).toEqual({ ...unknownBody.error, requestId: route.body.error.requestId });
    expect((await fetch(`${baseUrl()}/v1/sandbox/merchants`)).status).toBe(404);
  });

  it("server.mjs refuses to start with a sandbox token under NODE_ENV=production", () => {
    const script = 'globalThis.__sandpiper = { sandboxToken: "sbt_x" }; const s = await import("./server.mjs"); await s.startServer({ port: 0 });';
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      env: shellEnv({ NODE_ENV: "production", CALLBACK_ALLOW_LOOPBACK: "0", DATABASE_URL: "postgresql://postgres@127.0.0.1:1/none" }),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Sandpiper refuses to start: a sandbox token is set under NODE_ENV=production/);
  });
});

describe("the sandpiper-sandbox command", () => {
  it("answers `merchant {json}` and `reset` lines with one JSON line each; a passing run prints no warning", async () => {
    const bin = path.join(project, "node_modules", ".bin", "sandpiper-sandbox");
    // The callback's answer is late: the reset comes while its attempt is under way (the warning's cause once).
    const slow = await startReceiver(() => ({ delayMs: 400 }));
    const child = spawn(bin, ["--port", "0", "--json"], { cwd: project, env: shellEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
    const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => JSON.parse(String((await lines.next()).value));
    try {
      const info = await next();
      expect(info.sandboxToken).toMatch(/^sbt_/);
      child.stdin.write(`merchant ${JSON.stringify({ callbackUrl: slow.url })}\n`);
      const made = await next();
      expect(Object.keys(made).sort()).toEqual(["apiKey", "callbackSecret", "keys", "merchantId"]);
      const post = (route: string, body: unknown) =>
        fetch(info.url + route, {
          method: "POST",
          headers: { authorization: `Bearer ${made.apiKey}`, "content-type": "application/json", "idempotency-key": randomUUID() },
          body: JSON.stringify(body),
        }).then((r) => r.json());
      const payment = await post("/v1/payments", deposit("order-1"));
      await post(`/v1/sandbox/payments/${payment.id}/complete`, { outcome: "SUCCEEDED" });
      await slow.waitFor(1);
      child.stdin.write("reset\n");
      expect(await next()).toEqual({ reset: true });
      const gone = await fetch(`${info.url}/v1/payments`, { headers: { authorization: `Bearer ${made.apiKey}` } });
      expect(gone.status, "the made merchant is gone with the reset").toBe(401);
      child.stdin.write("merchant {oops\n");
      expect((await next()).error.message).toMatch(/merchant: the options must be a JSON object/);
      child.stdin.write('merchant {"port":1}\n');
      expect((await next()).error.message).toMatch(/unknown option "port"/);
      child.stdin.write("launch\n");
      expect((await next()).error.message).toMatch(/unknown command "launch"/);
      // waits on purpose: the delayed callback's attempt, in flight during the reset, ends meanwhile; a warning would be
      // written then, and nothing marks that none was
      await new Promise((r) => setTimeout(r, 1_000));
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.end();
      expect(await exited).toBe(0);
      expect(stderr, "nothing on stderr at the default log level").toBe("");
    } finally {
      child.kill("SIGKILL");
      await slow.close();
    }
  }, 120_000);

  it("names the bad value it was given", () => {
    const bin = path.join(project, "node_modules", ".bin", "sandpiper-sandbox");
    const port = spawnSync(bin, ["--port", "abc"], { cwd: project, env: shellEnv(), encoding: "utf8" });
    expect(port.status).toBe(2);
    expect(port.stderr).toMatch(/sandpiper-sandbox: --port: got "abc"; expected a whole number from 0 to 65535/);
    const rules = spawnSync(bin, ["--scenario-rules", "all"], { cwd: project, env: shellEnv(), encoding: "utf8" });
    expect(rules.stderr).toMatch(/--scenario-rules: got "all"; expected standard or none/);
  });
});

describe("a start that fails, and a stopped sandbox", () => {
  it("a port in use: the start rejects naming the port and what to pass, even with logLevel silent", async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      await expect(startSandpiper({ port, logLevel: "silent" })).rejects.toThrow(
        new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use by another process; pass \`port: 0\` or another port`),
      );
    } finally {
      holder.close();
    }
  }, 60_000);

  it("startTimeoutMs bounds the start; a bad value is refused naming it", async () => {
    await expect(startSandpiper({ startTimeoutMs: 10 })).rejects.toThrow(/startTimeoutMs must be a whole number of milliseconds from 1000, got 10/);
    await expect(startSandpiper({ startTimeoutMs: 1_000, logLevel: "silent" })).rejects.toThrow(/did not start within 1 s; .* `startTimeoutMs`/);
  }, 60_000);

  it("removes the folder of a sandbox whose process is gone at the next start; after stop() the clock, reset and merchant say it is stopped", async () => {
    const dead = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    const abandoned = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-sandbox-"));
    fs.writeFileSync(path.join(abandoned, "owner.pid"), dead.stdout.trim());
    const another = await startSandpiper({ logLevel: "silent" });
    expect(sandboxFolders()).not.toContain(path.basename(abandoned));
    await another.stop();
    await expect(another.clock.advance("1h")).rejects.toThrow(/the sandbox is stopped: clock\.advance\(\)/);
    await expect(another.clock.reset()).rejects.toThrow(/the sandbox is stopped: clock\.reset\(\)/);
    await expect(another.reset()).rejects.toThrow(/the sandbox is stopped: reset\(\)/);
    await expect(another.merchant()).rejects.toThrow(/the sandbox is stopped: merchant\(\)/);
  }, 60_000);
});

const guide = "docs/guides/test-in-your-own-suite.md";

/**
 * Writes the guide's code blocks whose first lines are `// <name>` into a new folder `<project>/<folder>` under those
 * names (`copies` adds a block again under another name: a second test file); answers the folder.
 */
function guideFiles(folder: string, names: string[], copies: Record<string, string> = {}): string {
  const dir = path.join(project, folder);
  fs.mkdirSync(dir);
  for (const name of names) fs.writeFileSync(path.join(dir, name), docBlock(guide, `// ${name}`));
  for (const [copy, of] of Object.entries(copies)) fs.copyFileSync(path.join(dir, of), path.join(dir, copy));
  return dir;
}

/** Runs `fn` with the repository's `runner` package linked into the project's node_modules, as a merchant's project installs it beside the tarball. */
function withRunner<T>(runner: string, fn: () => T): T {
  fs.symlinkSync(path.join(root, "node_modules", runner), path.join(project, "node_modules", runner));
  try {
    return fn();
  } finally {
    fs.rmSync(path.join(project, "node_modules", runner));
  }
}

/** `vitest run` of the project's folder `dir` with 2 workers, the repository's vitest linked into the project. */
const vitestRun = (dir: string) =>
  withRunner("vitest", () =>
    spawnSync(process.execPath, [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--root", dir, "--maxWorkers", "2"], {
      cwd: dir,
      env: shellEnv({ NO_COLOR: "1", FORCE_COLOR: "0" }),
      encoding: "utf8",
      timeout: 150_000,
    }),
  );

describe("the vitest pattern of docs/guides/test-in-your-own-suite.md, as written", () => {
  it("one sandbox in globalSetup, handed to two test files in parallel workers with provide/inject, a merchant per file", () => {
    const run = guideFiles("vitest-run", ["vitest.config.mjs", "sandpiper.setup.mjs", "deposits.test.mjs"], { "deposits-again.test.mjs": "deposits.test.mjs" });
    const result = vitestRun(run);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Test Files\s+2 passed/);
    expect(result.stdout).toMatch(/Tests\s+6 passed/);
  }, 180_000);
});

describe('the suite of bench/sandbox-suite.ts (docs/benchmarks.md "A suite of 50 files"), short', () => {
  it("3 of its files: every test makes its merchant, concludes a payment and verifies its callback, all green with 2 workers", () => {
    const run = path.join(project, "suite-run");
    const names = writeSandboxSuite(run, { files: 3, tests: 4 });
    expect(names).toHaveLength(3);
    const result = vitestRun(run);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Test Files\s+3 passed/);
    expect(result.stdout).toMatch(/Tests\s+12 passed/);
  }, 180_000);
});

describe("the Jest pattern of docs/guides/test-in-your-own-suite.md, as written", () => {
  const jestFiles = ["sandpiper.global-setup.js", "sandpiper.global-teardown.js", "orders.test.js"];

  /** Jest 30 run in `dir` with 2 workers (`nodeFlags` before Jest's own script); its JSON report's totals. */
  function jest(dir: string, nodeFlags: string[] = []) {
    const bin = path.join(project, "node_modules", "jest", "bin", "jest.js");
    const result = withRunner("jest", () =>
      spawnSync(process.execPath, [...nodeFlags, bin, "--maxWorkers", "2", "--json", "--outputFile", "report.json"], {
        cwd: dir,
        env: shellEnv({ NO_COLOR: "1", FORCE_COLOR: "0", CI: "true" }),
        encoding: "utf8",
        timeout: 150_000,
      }),
    );
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(dir, "report.json"), "utf8"));
    return { report, stderr: result.stderr };
  }

  it("under Jest's default configuration (CommonJS test files): one sandbox in globalSetup, two test files in two workers, a merchant per test", () => {
    const run = guideFiles("jest-run", ["jest.config.js", ...jestFiles], { "orders-again.test.js": "orders.test.js" });
    const { report } = jest(run);
    // The tests reach the sandbox only through the environment globalSetup set; Jest's process ends only once the
    // teardown has stopped the sandbox (its process would keep Jest's open: the run would time out).
    expect(report).toMatchObject({ success: true, numTotalTestSuites: 2, numPassedTests: 6, numFailedTests: 0 });
  }, 180_000);

  it("with native ES modules (--experimental-vm-modules): an ES module test file beside a CommonJS one", () => {
    const run = guideFiles("jest-esm-run", ["jest.config.mjs", ...jestFiles, "orders-esm.test.mjs"]);
    const { report } = jest(run, ["--experimental-vm-modules"]);
    expect(report).toMatchObject({ success: true, numTotalTestSuites: 2, numPassedTests: 4, numFailedTests: 0 });
  }, 180_000);
});
