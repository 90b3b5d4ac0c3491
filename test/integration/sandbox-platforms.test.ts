import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTRACT_VERSION } from "@/lib/application/openapi/document";
import { present } from "../../scripts/harness/present";
import { NODE_MAJORS, nodeOfMajor } from "../support/node-binaries";

// The three packages as they would be published (docs/guides/test-in-your-own-suite.md "Platforms" and "Publishing a
// release"): the tarballs `npm run pack:clients` makes hold no native binary and declare no platform, the sandbox starts
// and serves under every Node.js major the package supports, a strict TypeScript project that installs only a tarball
// (and typescript) type-checks with skipLibCheck off and refuses a wrong body and a wrong use of an answer, `npm publish
// --dry-run` accepts each tarball, `npm run pack:clients` builds what it needs on a fresh clone, and the tarball's
// sizes are those the guide and docs/benchmarks.md give.

const root = path.resolve(__dirname, "../..");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-platforms-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The environment a shell gives: none of the test run's npm variables (npm_config_*, npm_package_*). */
const shellEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv =>
  ({ ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"))), ...extra }) as NodeJS.ProcessEnv;
const run = (cmd: string, args: string[], cwd: string, env = shellEnv()) => execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: "pipe" });
const typescriptVersion = () => JSON.parse(fs.readFileSync(path.join(root, "node_modules/typescript/package.json"), "utf8")).version as string;

/** The tarballs of `npm run pack:clients` (a sandbox tarball of the same inputs packed earlier in the run is reused). */
let tarballs: { client: string; cli: string; sandbox: string };
/** An empty project outside the clone with only the sandbox tarball and typescript installed. */
const project = path.join(scratch, "sandbox-project");

/** An empty npm project at `dir` with `packages` installed (tarballs, and registry names with their versions). */
function newProject(dir: string, packages: string[]): void {
  fs.mkdirSync(dir);
  run("npm", ["init", "-y"], dir);
  run("npm", ["install", "--no-audit", "--no-fund", ...packages], dir);
}

/** Every file under `dir`, relative, with `/` separators. */
const filesUnder = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"));

/** A file that is machine code for one platform: a Node.js addon, a shared library, or an ELF, Mach-O or PE executable. */
function isNative(file: string): boolean {
  if (/\.(node|so(\.\d+)*|dylib|dll|exe)$/i.test(file)) return true;
  const head = Buffer.alloc(4);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, head, 0, 4, 0);
  } finally {
    fs.closeSync(fd);
  }
  const magic = head.readUInt32BE(0);
  return magic === 0x7f454c46 || [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].includes(magic) || (head[0] === 0x4d && head[1] === 0x5a && head[2] === 0x90);
}

/** Package names that name a platform (@node-rs/argon2-linux-x64-gnu, @next/swc-darwin-arm64, @esbuild/win32-x64, ...). */
const PLATFORM_NAME =
  /(^|[-_/.@])(linux|darwin|macos|win32|windows|freebsd|openbsd|netbsd|sunos|aix|android|x64|x86_64|arm64|aarch64|ia32|musl|gnu|msvc)([-_.]|$)/;

/** The name of every package (a folder with a package.json under a node_modules) under `dir`. */
function packagesUnder(dir: string): string[] {
  return filesUnder(dir)
    .map((file) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/@]+)\/package\.json$/.exec(file)?.[1])
    .filter((name): name is string => name !== undefined);
}

beforeAll(async () => {
  const packed = run("npm", ["run", "--silent", "pack:clients", "--", path.join(scratch, "packages")], root);
  const tarball = (name: string) => /: (\S+\.tgz)$/m.exec(packed.split("\n").find((l) => l.startsWith(`${name} `)) ?? "")?.[1] ?? "";
  tarballs = { client: tarball("@sandpiper/client"), cli: tarball("@sandpiper/cli"), sandbox: tarball("@sandpiper/sandbox") };
  expect(path.basename(tarballs.sandbox)).toBe(`sandpiper-sandbox-${CONTRACT_VERSION}.tgz`);
  newProject(project, [tarballs.sandbox, `typescript@${typescriptVersion()}`]);
}, 600_000);

describe("every platform", () => {
  it("the sandbox tarball holds no native binary and no platform package, and its package.json no os or cpu", () => {
    const installed = path.join(project, "node_modules", "@sandpiper", "sandbox");
    const files = filesUnder(installed);
    expect(files.length).toBeGreaterThan(1000);
    expect(
      files.filter((file) => isNative(path.join(installed, file))),
      "native binaries",
    ).toEqual([]);
    const packages = packagesUnder(installed);
    expect(packages).toEqual(expect.arrayContaining(["next", "@electric-sql/pglite", "openapi-fetch"]));
    expect(
      packages.filter((name) => PLATFORM_NAME.test(name)),
      "platform packages",
    ).toEqual([]);
    const pkg = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8"));
    expect(pkg.os).toBeUndefined();
    expect(pkg.cpu).toBeUndefined();
    // The checks above do fail: a Node.js addon is found by its name and by its first bytes.
    const addon = path.join(scratch, "probe.node");
    fs.writeFileSync(addon, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]));
    expect(isNative(addon)).toBe(true);
    fs.renameSync(addon, path.join(scratch, "probe.bin"));
    expect(isNative(path.join(scratch, "probe.bin"))).toBe(true);
    expect(
      ["@node-rs/argon2-linux-x64-gnu", "@next/swc-darwin-arm64", "@esbuild/win32-x64", "@img/sharp-linuxmusl-x64"].filter((n) => !PLATFORM_NAME.test(n)),
    ).toEqual([]);
  });

  // One short start and one payment under each major: the running node's and those of the registry's node packages
  // (fetched once into a cache folder outside the clone: test/support/node-binaries.ts).
  for (const major of NODE_MAJORS) {
    it(`starts and serves a payment under Node.js ${major}`, () => {
      const { node, version } = nodeOfMajor(major, shellEnv());
      fs.writeFileSync(
        path.join(project, `node-${major}.mjs`),
        `import { startSandpiper } from "@sandpiper/sandbox";
const sandbox = await startSandpiper({ logLevel: "error" });
try {
  const payment = await sandbox.client.createPayment({ body: { reference: "node-${major}", amount: "10.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" } });
  const done = await sandbox.client.completeSandboxPayment({ params: { path: { id: payment.id } }, body: { outcome: "SUCCEEDED" } });
  console.log(JSON.stringify({ node: process.version, status: done.status }));
} finally {
  await sandbox.stop();
}
`,
      );
      const started = spawnSync(node, [`node-${major}.mjs`], { cwd: project, env: shellEnv(), encoding: "utf8", timeout: 120_000 });
      expect(started.status, started.stdout + started.stderr).toBe(0);
      expect(JSON.parse(started.stdout.trim())).toEqual({ node: version, status: "SUCCEEDED" });
    }, 180_000);
  }
});

/** Bytes of every file under `dir` (what `du -sb` counts, less the folders' own entries). */
const bytesUnder = (dir: string) => filesUnder(dir).reduce((sum, file) => sum + fs.statSync(path.join(dir, file)).size, 0);

describe("the sizes the docs give", () => {
  it("the tarball and its installed size are within 5% of docs/guides/test-in-your-own-suite.md and docs/benchmarks.md", () => {
    const guide = fs.readFileSync(path.join(root, "docs/guides/test-in-your-own-suite.md"), "utf8");
    const [, tarballMB, installedMB] = /the tarball is ([\d.]+) MB and takes ([\d.]+) MB installed/.exec(guide) ?? [];
    const benchmarks = fs.readFileSync(path.join(root, "docs/benchmarks.md"), "utf8");
    const row = /^\| after: [^|]+\| ([\d.]+) MB [^|]*\| ([\d.]+) MB \|$/m.exec(benchmarks);
    expect([row?.[1], row?.[2]], "the after row of the size table in docs/benchmarks.md").toEqual([tarballMB, installedMB]);
    const near = (actual: number, documented: number) => Math.abs(actual - documented) / documented <= 0.05;
    const tarball = fs.statSync(tarballs.sandbox).size / 1e6;
    const installed = bytesUnder(path.join(project, "node_modules", "@sandpiper")) / 1e6;
    expect(near(tarball, Number(tarballMB)), `the tarball is ${tarball.toFixed(1)} MB, the guide says ${tarballMB} MB`).toBe(true);
    expect(near(installed, Number(installedMB)), `installed ${installed.toFixed(1)} MB, the guide says ${installedMB} MB`).toBe(true);
  });
});

/**
 * A strict project (skipLibCheck off, no @types/node) that uses the typed client of `from` and whose `@ts-expect-error`
 * lines are a wrong body and wrong uses of an answer: tsc fails on any other error and on an expected error that does
 * not happen (TS2578), so types that were `any` fail it. `imports` are the file's imports, `clientOf` the statements
 * that make `client`. `commonjs`: the file is a .cts (its imports become require() calls, which resolve the
 * package's `require` entry and types), its statements inside an async function; otherwise a .mts with top-level await.
 */
function typeTest(dir: string, imports: string, clientOf: string, { commonjs = false } = {}): string {
  const file = commonjs ? "typed.cts" : "typed.mts";
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", types: [] },
      include: [file],
    }),
  );
  const statements = `${clientOf}
const body = { reference: "typed-1", amount: "10.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" } as const;
const payment = await client.createPayment({ body });
const status: string = payment.status;
const amount: string = payment.amount;
// @ts-expect-error a reference is text
await client.createPayment({ body: { ...body, reference: 1 } });
// @ts-expect-error an amount is a decimal string, never a number
const wrongAmount: number = payment.amount;
// @ts-expect-error a payment has no member "amountMinor"
payment.amountMinor;
// @ts-expect-error getPayment takes the id in params.path
await client.getPayment({ id: payment.id });
`;
  fs.writeFileSync(
    path.join(dir, file),
    commonjs
      ? `${imports}\nexport async function typed() {\n${statements}return { status, amount, wrongAmount };\n}\n`
      : `${imports}\n${statements}export { status, amount, wrongAmount };\n`,
  );
  const tsc = spawnSync(process.execPath, [path.join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
  return tsc.stdout + tsc.stderr + (tsc.status === 0 ? "" : `tsc exited with ${tsc.status}`);
}

describe("the packages as they would be published", () => {
  it("the sandbox tarball alone: a strict project type-checks with skipLibCheck off, and a wrong body or answer use does not compile", () => {
    expect(
      typeTest(project, `import { startSandpiper } from "@sandpiper/sandbox";`, "const sandbox = await startSandpiper();\nconst client = sandbox.client;"),
    ).toBe("");
  });

  it("the same from CommonJS (the package's require entry and its .d.cts, as a Jest test file loads it): startSandpiper and newMerchant", () => {
    const imports = `import { newMerchant, startSandpiper, type SandboxMerchant } from "@sandpiper/sandbox";`;
    const clientOf = `const sandbox = await startSandpiper();
const merchant: SandboxMerchant = await newMerchant({ url: sandbox.url, sandboxToken: sandbox.sandboxToken }, { scenarioRules: "standard" });
// @ts-expect-error newMerchant takes the sandbox's url and sandboxToken
await newMerchant({ url: sandbox.url });
const client = merchant.client;`;
    expect(typeTest(project, imports, clientOf, { commonjs: true })).toBe("");
  });

  it("the client tarball alone (its two npm dependencies from the registry): the same type test", () => {
    const dir = path.join(scratch, "client-project");
    newProject(dir, [tarballs.client, `typescript@${typescriptVersion()}`]);
    expect(
      typeTest(dir, `import { createClient } from "@sandpiper/client";`, `const client = createClient({ baseUrl: "http://127.0.0.1:1", apiKey: "sk" });`),
    ).toBe("");
  }, 180_000);

  it("npm publish --dry-run accepts each of the three tarballs", () => {
    for (const [name, tarball] of Object.entries(tarballs)) {
      const published = spawnSync("npm", ["publish", "--dry-run", "--access", "public", tarball], { cwd: scratch, env: shellEnv(), encoding: "utf8" });
      expect(published.status, `${name}: ${published.stdout}${published.stderr}`).toBe(0);
      expect(published.stdout, name).toContain(`+ @sandpiper/${name}@${CONTRACT_VERSION}`);
      expect(published.stderr, name).toMatch(/Publishing to \S+ with tag latest and public access \(dry-run\)/);
    }
  }, 120_000);

  it("npm run pack:clients on a fresh clone generates what it needs (the client package, before any build)", () => {
    // The clone's files as a fresh clone has them (nothing generated), with the installed node_modules.
    const clone = path.join(scratch, "clone");
    for (const file of run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root).split("\0").filter(Boolean)) {
      if (fs.existsSync(path.join(root, file))) fs.cpSync(path.join(root, file), path.join(clone, file));
    }
    fs.symlinkSync(path.join(root, "node_modules"), path.join(clone, "node_modules"));
    expect(fs.existsSync(path.join(clone, "lib", "platform", "generated"))).toBe(false);
    const prepared = spawnSync(process.execPath, ["scripts/pack-clients.mjs", "--prepare", "client"], {
      cwd: clone,
      env: shellEnv(),
      encoding: "utf8",
      timeout: 300_000,
    });
    expect(prepared.status, prepared.stdout + prepared.stderr).toBe(0);
    expect(fs.existsSync(path.join(clone, "clients", "typescript", "dist", "index.d.ts"))).toBe(true);
    expect(present(fs.readdirSync(path.join(clone, "lib", "platform", "generated", "prisma"))[0], "a generated file")).toBeTruthy();
  }, 360_000);
});
