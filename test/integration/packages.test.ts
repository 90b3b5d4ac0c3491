import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CONTRACT_VERSION } from "@/lib/application/openapi/document";
import { baseUrl, db, newMerchant } from "../support/fixtures";
import { CLONE_BUILD_LOCK } from "../../scripts/pack-clients.mjs";
import { packLock } from "../../scripts/pack-sandbox.mjs";

// The two packages as a new user meets them (docs/client.md "Install", docs/guides/command-line.md "The sandpiper command"): both
// tarballs built by `npm run pack:clients`, installed with the registry's npm into an empty project outside the clone
// (the packages' own dependencies come from the registry), a strict TypeScript program against @sandpiper/client
// type-checked, compiled and run against the built service, and the `sandpiper` command run from that project. The
// installed packages must not point into the clone.

const root = path.resolve(__dirname, "../..");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-packages-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The environment a shell gives: none of the test run's npm variables (npm_config_*, npm_package_*). */
const shellEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv =>
  ({ ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"))), ...extra }) as NodeJS.ProcessEnv;
const run = (cmd: string, args: string[], cwd: string, env = shellEnv()) => execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: "pipe" });

/** Every file under `dir` whose text contains `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => fs.readFileSync(file, "latin1").includes(needle));
}

/** clients/cli/dist/main.js as a pack leaves it: its inode and change time, or null when it is missing. */
const cliBuilt = () => {
  const stat = fs.statSync(path.join(root, "clients", "cli", "dist", "main.js"), { throwIfNoEntry: false });
  return stat ? `${stat.ino}@${stat.ctimeMs}` : null;
};

/**
 * `npm run pack:clients -- <out>` started while this test holds the clone's build lock (as another pack would): it
 * must say that it waits and leave the clone's build folders alone until the lock is given back, then pack.
 * @returns what the pack printed on stdout
 */
async function packWhileTheCloneIsHeld(out: string): Promise<string> {
  const release = await packLock(CLONE_BUILD_LOCK);
  let stdout = "";
  let stderr = "";
  let exit: Promise<number | null> | undefined;
  try {
    const before = cliBuilt();
    const child = spawn("npm", ["run", "--silent", "pack:clients", "--", out], { cwd: root, env: shellEnv(), stdio: ["ignore", "pipe", "pipe"] });
    exit = new Promise((resolve) => child.once("close", resolve));
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        if (stderr.includes(`waiting for another pack of this clone: process ${process.pid} holds`)) resolve();
      }),
    );
    const endedFirst = await Promise.race([waiting.then(() => false), exit.then(() => true)]);
    expect(endedFirst, `the pack ended while the clone was held: ${stderr}`).toBe(false);
    expect(cliBuilt(), "the clone's CLI build, untouched while held").toBe(before);
  } finally {
    release();
  }
  expect(await exit, stderr).toBe(0);
  return stdout;
}

describe("the client and CLI packages", () => {
  it("install from their tarballs into an empty project and work against the service", async () => {
    // 1. the tarballs, as `npm run pack:clients` makes them (into a folder of the test's own), while another pack of
    // the clone holds its build folders: this one waits for it, touching nothing, and then packs
    const packed = await packWhileTheCloneIsHeld(path.join(scratch, "packages"));
    const tarball = (name: string) => /: (\S+\.tgz)$/m.exec(packed.split("\n").find((l) => l.startsWith(`${name} `)) ?? "")?.[1] ?? "";
    const client = tarball("@sandpiper/client");
    const cli = tarball("@sandpiper/cli");
    expect(path.basename(client)).toBe(`sandpiper-client-${CONTRACT_VERSION}.tgz`);
    expect(path.basename(cli)).toBe(`sandpiper-cli-${CONTRACT_VERSION}.tgz`);

    // 2. an empty project outside the clone; one install, from the registry
    const project = path.join(scratch, "project");
    fs.mkdirSync(project);
    run("npm", ["init", "-y"], project);
    const typescript = JSON.parse(fs.readFileSync(path.join(root, "node_modules/typescript/package.json"), "utf8")).version as string;
    run("npm", ["install", "--no-audit", "--no-fund", client, cli, `typescript@${typescript}`], project);
    const installed = (name: string) => JSON.parse(fs.readFileSync(path.join(project, "node_modules/@sandpiper", name, "package.json"), "utf8"));
    expect(installed("client")).toMatchObject({ version: CONTRACT_VERSION, license: "MIT", engines: { node: expect.any(String) } });
    expect(fs.existsSync(path.join(project, "node_modules/openapi-fetch/package.json")), "the client's dependency, installed").toBe(true);
    for (const name of ["client", "cli"]) {
      for (const file of ["README.md", "LICENSE"])
        expect(fs.existsSync(path.join(project, "node_modules/@sandpiper", name, file)), `${name}/${file}`).toBe(true);
    }
    expect(filesContaining(path.join(project, "node_modules/@sandpiper"), root), "paths into the clone").toEqual([]);

    // 3. a strict TypeScript program (module nodenext), type-checked, compiled and run against the service
    const m = await newMerchant();
    fs.writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", outDir: "out", types: [] },
        include: ["*.mts"],
      }),
    );
    fs.writeFileSync(
      path.join(project, "check.mts"),
      `import { createClient, SandpiperError, type ErrorCode } from "@sandpiper/client";

const client = createClient({ baseUrl: ${JSON.stringify(baseUrl())}, apiKey: ${JSON.stringify(m.key)} });
const payment = await client.createPayment({ body: { reference: "packaged-1", amount: "12.34", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" } });
const done = await client.completeSandboxPayment({ params: { path: { id: payment.id } }, body: { outcome: "SUCCEEDED" } });
const page = await client.listPayments({ params: { query: { limit: 5, page: 1 } } });
let code: ErrorCode | "NETWORK_ERROR" | null = null;
try {
  await client.getPayment({ params: { path: { id: "00000000-0000-4000-8000-000000000000" } } });
} catch (error) {
  if (error instanceof SandpiperError) code = error.code;
}
console.log(JSON.stringify({ id: payment.id, status: done.status, total: page.total, code }));
`,
    );
    run("npx", ["tsc", "--noEmit"], project);
    run("npx", ["tsc"], project);
    const result = JSON.parse(run(process.execPath, [path.join("out", "check.mjs")], project).trim());
    expect(result).toMatchObject({ status: "SUCCEEDED", total: 1, code: "NOT_FOUND" });
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(1);
    // The compiler refuses what the document does not allow (the check above is not vacuous).
    fs.writeFileSync(
      path.join(project, "wrong.mts"),
      `import { createClient } from "@sandpiper/client";\nawait createClient({ baseUrl: "", apiKey: "" }).createPayment({ body: { amount: 1 } });\n`,
    );
    const wrong = spawnSync("npx", ["tsc", "--noEmit"], { cwd: project, env: shellEnv(), encoding: "utf8" });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toContain("wrong.mts");
    fs.rmSync(path.join(project, "wrong.mts"));

    // 4. the sandpiper command, installed by the same npm install
    const help = spawnSync("npx", ["sandpiper", "--help"], { cwd: project, env: shellEnv(), encoding: "utf8" });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: sandpiper <command> \[options\]/);
    const events = spawnSync("npx", ["sandpiper", "events", "list", "--json", "--limit", "5"], {
      cwd: project,
      env: shellEnv({ SANDPIPER_API_URL: baseUrl(), SANDPIPER_API_KEY: m.key }),
      encoding: "utf8",
    });
    expect(events.status, events.stderr).toBe(0);
    expect(JSON.parse(events.stdout)).toMatchObject({ total: 1, items: [{ type: "payment.succeeded", data: { id: result.id } }] });
    expect(events.stdout + events.stderr).not.toContain(m.key);
  }, 300_000);
});
