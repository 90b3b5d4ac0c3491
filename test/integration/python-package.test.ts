import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTRACT_VERSION } from "@/lib/application/openapi/document";
import { wheelName } from "../../scripts/pack-python.mjs";
import { docBlock } from "../support/readme";
import { installSandboxPackage, shellEnv } from "../support/sandbox-package";

// The `sandpiper` Python package as a merchant's pytest suite meets it (docs/guides/test-in-your-own-suite.md
// "Python"): the wheel that `npm run pack:clients` builds, installed into a fresh virtual environment in an empty
// folder with pip from the machine's configured index (the wheel, pytest, pytest-xdist, httpx), and the sandbox's
// tarball installed alone into another empty folder, where pytest runs the guide's example file: without and with
// pytest-xdist (`-n 2`), then a file whose test fails, to see the sandbox stopped all the same.

const root = path.resolve(__dirname, "../..");
const GUIDE = "docs/guides/test-in-your-own-suite.md";
const EXAMPLE = "clients/python/examples/test_orders.py";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-python-pkg-"));
const venv = path.join(scratch, "venv");
const python = path.join(venv, "bin", "python");
let project: string;

/** A command's outcome, its output in the message of a failed expectation. */
function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): SpawnSyncReturns<string> {
  const env = shellEnv();
  for (const name of Object.keys(env)) if (name.startsWith("SANDPIPER_")) delete env[name];
  Object.assign(env, options.env);
  return spawnSync(command, args, { cwd: options.cwd, env, encoding: "utf8", timeout: 240_000 });
}
const output = (r: SpawnSyncReturns<string>) => `exit ${r.status ?? r.signal ?? r.error?.message}\n${r.stdout}\n${r.stderr}`;

/** The processes started from the project's installed package (the command and the sandbox's own process). */
function sandboxProcesses(): string[] {
  const installed = path.join(project, "node_modules");
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(installed);
      } catch {
        return false;
      }
    });
}

/** pytest of the virtual environment, in the project; exits 0 only when every test passed. */
const pytest = (args: string[], env: Record<string, string> = {}) =>
  run(python, ["-m", "pytest", "-p", "no:cacheprovider", "-v", ...args], { cwd: project, env: { PYTHONDONTWRITEBYTECODE: "1", ...env } });

beforeAll(async () => {
  ({ project } = await installSandboxPackage(scratch));
  const wheel = path.join(scratch, "packages", wheelName(CONTRACT_VERSION));
  expect(fs.existsSync(wheel), "npm run pack:clients built the wheel").toBe(true);

  const created = run("python3", ["-m", "venv", venv], { cwd: scratch });
  expect(created.status, output(created)).toBe(0);
  // The machine's configured index only; `--retries 0`: an index out of reach is skipped at once.
  const installed = run(python, ["-m", "pip", "install", "--retries", "0", "--disable-pip-version-check", wheel, "pytest", "pytest-xdist", "httpx"], {
    cwd: scratch,
  });
  expect(installed.status, output(installed)).toBe(0);
  const shown = run(python, ["-m", "pip", "show", "sandpiper"], { cwd: scratch });
  expect(shown.stdout).toMatch(new RegExp(`^Version: ${CONTRACT_VERSION.replaceAll(".", "\\.")}$`, "m"));
  const metadata = shown.stdout.match(/^Location: (.+)$/m)?.[1] ?? "";
  expect(fs.readFileSync(path.join(metadata, `sandpiper-${CONTRACT_VERSION}.dist-info`, "METADATA"), "utf8")).toMatch(/^License-Expression: MIT$/m);

  // The guide's example, as written, is the merchant's test file.
  const example = docBlock(GUIDE, "# test_orders.py");
  expect(example, `${GUIDE} shows ${EXAMPLE} as it is`).toBe(fs.readFileSync(path.join(root, EXAMPLE), "utf8"));
  fs.writeFileSync(path.join(project, "test_orders.py"), example);
}, 900_000); // the tarball is packed first when no earlier file of the run packed it: minutes on a busy machine

afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the sandpiper Python package", () => {
  it("runs the guide's pytest file: a sandbox from npx in the project, a merchant per test, callbacks verified, the clock moved", () => {
    const result = pytest(["test_orders.py"]);
    expect(result.status, output(result)).toBe(0);
    expect(result.stdout).toMatch(/\b4 passed\b/);
    expect(sandboxProcesses(), "the sandbox stopped with the session").toEqual([]);
  }, 300_000);

  it("with pytest-xdist (-n 2) each worker starts its own sandbox from SANDPIPER_SANDBOX_COMMAND", () => {
    const command = path.join(project, "node_modules", ".bin", "sandpiper-sandbox");
    const result = pytest(["-n", "2", "test_orders.py"], { SANDPIPER_SANDBOX_COMMAND: command });
    expect(result.status, output(result)).toBe(0);
    expect(result.stdout).toMatch(/\b4 passed\b/);
    expect(result.stdout, "both workers ran tests").toMatch(/\[gw0\] .*PASSED/);
    expect(result.stdout, "both workers ran tests").toMatch(/\[gw1\] .*PASSED/);
    expect(sandboxProcesses(), "every worker's sandbox stopped").toEqual([]);
  }, 300_000);

  it("stops the sandbox when a test fails; reset() empties it; a refused option and a missing command say why", () => {
    fs.writeFileSync(
      path.join(project, "test_more.py"),
      [
        "import uuid",
        "import httpx, pytest",
        "from sandpiper import SandboxError",
        "",
        "def test_reset_empties_the_sandbox(sandpiper):",
        '    seeded = httpx.Client(base_url=sandpiper.url, headers={"Authorization": "Bearer " + sandpiper.info["apiKey"]})',
        '    body = {"reference": "r-1", "amount": "10.00", "currency": "USD", "method": "GATEWAY", "direction": "DEPOSIT"}',
        '    assert seeded.post("/v1/payments", json=body, headers={"Idempotency-Key": str(uuid.uuid4())}).status_code == 201',
        '    assert seeded.get("/v1/payments").json()["total"] == 1',
        "    sandpiper.reset()",
        '    assert seeded.get("/v1/payments").json()["total"] == 0',
        "",
        "def test_a_refused_option(sandpiper):",
        '    with pytest.raises(SandboxError, match="scenarioRules"):',
        '        sandpiper.merchant(scenario_rules="sometimes")',
        "",
        "def test_that_fails(sandpiper_merchant):",
        '    assert sandpiper_merchant.client.get("/v1/payments").json()["total"] == 1, "this test fails"',
        "",
      ].join("\n"),
    );
    const result = pytest(["test_more.py"]);
    expect(result.status, output(result)).toBe(1);
    expect(result.stdout).toMatch(/\b1 failed, 2 passed\b/);
    expect(result.stdout).toContain("this test fails");
    expect(sandboxProcesses(), "the sandbox stopped although a test failed").toEqual([]);

    const missing = pytest(["test_more.py", "-k", "refused"], { SANDPIPER_SANDBOX_COMMAND: path.join(scratch, "no-such-command") });
    expect(missing.status, output(missing)).toBe(1);
    expect(missing.stdout).toContain("could not run the sandbox command");
    expect(missing.stdout).toContain("SANDPIPER_SANDBOX_COMMAND");
  }, 300_000);
});
