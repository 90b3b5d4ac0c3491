// npm run pack:clients [-- <folder>]: builds the three packages a project installs without a clone (docs/client.md
// "Install", docs/guides/command-line.md "The sandpiper command") into package tarballs in <folder> (default dist-packages/) and prints
// their paths:
//   @sandpiper/client  clients/typescript: compiled ESM and .d.ts (tsc), its npm dependencies declared
//   @sandpiper/cli     clients/cli: clients/cli/src/main.ts and everything it imports bundled into one ESM file (esbuild)
//   @sandpiper/sandbox clients/sandbox: the built service with its database, for a merchant's own test suite
//                      (scripts/pack-sandbox.mjs; docs/guides/test-in-your-own-suite.md)
// A plain `npm pack` in clients/typescript, clients/cli or clients/sandbox builds its package first (its `prepack`
// script runs `--prepare client`, `--prepare cli` or `--prepare sandbox` here), so it packs complete too, with its
// package.json's version.
// All three tarballs carry the OpenAPI document's info.version whatever the package.json files say (they are packed from a
// staging copy; nothing in the clone changes). The client's generated types must be those of the document: stale
// ones stop the build.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { tsImport } from "tsx/esm/api";
import { generate } from "../clients/typescript/scripts/generate.mjs";
import { generateClient } from "./db.mjs";
import { buildSandbox, esbuildBase, packLock, packSandbox } from "./pack-sandbox.mjs";
import { packPython } from "./pack-python.mjs";

const root = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
const clientDir = path.join(root, "clients", "typescript");
const cliDir = path.join(root, "clients", "cli");
const sandboxDir = path.join(root, "clients", "sandbox");

/**
 * The service's OpenAPI document as it is served (plain JSON), built from lib/application/openapi/document.ts. The
 * document's modules import the generated Prisma client's types and enums: on a fresh clone, where `npm ci` has
 * generated nothing, it is generated first (`prisma generate`, as `npm run build` does).
 */
export async function contractDocument() {
  if (!fs.existsSync(path.join(root, "lib", "platform", "generated", "prisma", "client.ts"))) generateClient();
  const { openApiDocument } = await tsImport("../lib/application/openapi/document.ts", {
    parentURL: import.meta.url,
    tsconfig: path.join(root, "tsconfig.json"),
  });
  return JSON.parse(JSON.stringify(openApiDocument()));
}

/**
 * `npm pack` of the package in `dir` into `out`, with package.json's version set to `version`: the package's files
 * (package.json `files`, plus package.json) are copied to a staging folder in `out` first, so the clone is not
 * changed. The tarball's path.
 */
function npmPack(dir, out, version) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  if (pkg.version !== version) console.log(`${path.relative(root, dir)}/package.json says ${pkg.version}: packed as ${version}, the document's`);
  const stage = path.join(out, ".stage", path.basename(dir));
  fs.rmSync(stage, { recursive: true, force: true });
  for (const name of pkg.files) fs.cpSync(path.join(dir, name), path.join(stage, name), { recursive: true });
  fs.writeFileSync(path.join(stage, "package.json"), `${JSON.stringify({ ...pkg, version, scripts: undefined }, null, 2)}\n`);
  const json = execFileSync("npm", ["pack", "--json", "--pack-destination", out], { cwd: stage, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  fs.rmSync(path.join(out, ".stage"), { recursive: true, force: true });
  return path.join(out, JSON.parse(json)[0].filename);
}

/** Bundles clients/cli/src/main.ts with what it imports (npm packages included) into clients/cli/dist/main.js. */
async function bundleCli() {
  fs.rmSync(path.join(cliDir, "dist"), { recursive: true, force: true });
  await build({ ...esbuildBase, entryPoints: [path.join(root, "clients", "cli", "src", "main.ts")], outfile: path.join(cliDir, "dist", "main.js") });
}

/**
 * Builds the client's compiled files (clients/typescript/dist) from its sources; its generated types must be those of
 * the document.
 * @returns the document's version
 * @throws Error when the generated types are stale, or tsc fails
 */
async function buildClient() {
  const doc = await contractDocument();
  const files = await generate(doc);
  for (const [name, text] of Object.entries(files)) {
    if (fs.readFileSync(path.join(clientDir, "src", name), "utf8") !== text) {
      throw new Error(`clients/typescript/src/${name} is stale: regenerate it (docs/client.md "Regenerating the types")`);
    }
  }
  fs.rmSync(path.join(clientDir, "dist"), { recursive: true, force: true });
  execFileSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: clientDir, stdio: "inherit" });
  return doc.info.version;
}

/**
 * What each package's `prepack` script builds in its own folder, so that a plain `npm pack` there packs a complete
 * package (docs/client.md "Install"): `node scripts/pack-clients.mjs --prepare <name>`.
 */
export const PREPARE = {
  client: buildClient,
  cli: bundleCli,
  // The sandbox carries the client's compiled files: they are built first.
  sandbox: async () => {
    await buildClient();
    await buildSandbox(sandboxDir, clientDir);
  },
};

/**
 * Builds the three packages and packs them into `out` (created when missing).
 * @returns {Promise<{ version: string, client: string, cli: string, sandbox: string }>} the version and the tarballs' absolute paths
 * @throws Error when the client's generated types differ from the document's, or a build fails
 */
export async function packClients(out = path.join(root, "dist-packages")) {
  const release = await cloneBuildLock();
  try {
    const version = await buildClient();
    await bundleCli();
    fs.mkdirSync(out, { recursive: true });
    const client = npmPack(clientDir, out, version);
    const cli = npmPack(cliDir, out, version);
    return { version, client, cli, sandbox: await packSandbox(out, version, clientDir), python: packPython(out, version) };
  } finally {
    release();
  }
}

/**
 * The lock file of the clone's build folders. clients/typescript/dist and clients/cli/dist are emptied and rebuilt by
 * every pack: one process packs at a time, the others wait (test files of one run pack side by side, each into its
 * own folder). docs/guides/work-on-sandpiper.md "The packages and a release".
 */
export const CLONE_BUILD_LOCK = path.join(root, "node_modules", ".cache", "sandpiper-pack-clients.lock");
/** Takes {@link CLONE_BUILD_LOCK}, waiting while another live process holds it; resolves to the function that gives it back. */
const cloneBuildLock = () => packLock(CLONE_BUILD_LOCK, "another pack of this clone");

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === "--prepare") {
  const prepare = PREPARE[process.argv[3]];
  if (!prepare) throw new Error(`--prepare takes one of ${Object.keys(PREPARE).join(", ")}`);
  process.chdir(root); // npm runs prepack in the package's folder; the document's TypeScript resolves from the root
  const release = await cloneBuildLock();
  try {
    await prepare();
  } finally {
    release();
  }
} else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const packed = await packClients(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`@sandpiper/client ${packed.version}: ${packed.client}`);
  console.log(`@sandpiper/cli ${packed.version}: ${packed.cli}`);
  console.log(`@sandpiper/sandbox ${packed.version}: ${packed.sandbox}`);
  if (packed.python) console.log(`sandpiper (Python) ${packed.version}: ${packed.python}`);
}
