// The TypeScript that runs outside Next.js, compiled to JavaScript (docs/architecture.md "Stack"): the configuration
// check of server.mjs (lib/platform/config-values.ts), the seed (prisma/seed.ts) and the console's password reset
// (scripts/console-reset-password.ts). `npm run build` compiles them with esbuild into lib/platform/generated/compiled/
// (git-ignored, beside the Prisma client); a file whose sources changed since is compiled again on first use, and
// a fresh clone (nothing built yet: `npm start` checks its configuration before it builds) compiles on first use
// too. Nothing runs through tsx: the serving process checks its configuration in-process, in a few milliseconds,
// instead of in a child process that loaded tsx (about a second each time).
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const outDir = path.join(root, "lib", "platform", "generated", "compiled");
const require = createRequire(import.meta.url);

/** The entries this module compiles: project-relative source and the module format Node.js loads it as. */
export const COMPILED = {
  config: { entry: "lib/platform/config-values.ts", format: "cjs" },
  seed: { entry: "prisma/seed.ts", format: "esm" },
  resetPassword: { entry: "scripts/console-reset-password.ts", format: "esm" },
};

/** The compiled file of `entry` and its record of the sources it was compiled from. */
function outputsOf({ entry, format }) {
  const base = path.join(outDir, entry.replace(/\.ts$/, "").replaceAll("/", "__"));
  return { file: `${base}.${format === "cjs" ? "cjs" : "mjs"}`, record: `${base}.json` };
}

/** SHA-256 (hex) of a file's bytes, or null when it is gone. */
function fileHash(file) {
  try {
    return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  } catch {
    return null;
  }
}

/** Whether the compiled `file` was made in this folder from the sources as they are now (its `record`). */
function isCurrent({ file, record }) {
  if (!fs.existsSync(file) || !fs.existsSync(record)) return false;
  const { root: madeIn, inputs } = JSON.parse(fs.readFileSync(record, "utf8"));
  return madeIn === root && Object.entries(inputs).every(([rel, hash]) => fileHash(path.join(root, rel)) === hash);
}

/** The esbuild options of `spec`: every source bundled but node_modules' packages, written to its compiled file. */
function buildOptions(spec, outputs) {
  return {
    entryPoints: [path.join(root, spec.entry)],
    bundle: true,
    platform: "node",
    format: spec.format,
    target: "node20.9",
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    write: false,
    metafile: true,
    outfile: outputs.file,
    logLevel: "error",
  };
}

/**
 * The plain-JavaScript `.mjs` modules of the clone (scripts/db.mjs, server.mjs, ...) loaded from where they are, not
 * bundled: they find the clone from their own place (an esbuild plugin; only the asynchronous API runs plugins).
 */
const cloneModulesInPlace = {
  name: "clone-mjs-in-place",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.mjs$/ }, (args) => {
      const resolved = path.resolve(args.resolveDir, args.path);
      const inClone = resolved.startsWith(root + path.sep) && !resolved.includes(`${path.sep}node_modules${path.sep}`);
      return inClone ? { path: resolved, external: true } : undefined;
    });
  },
};

/** esbuild, or an Error that says a build in a full install compiles `spec` (an install without devDependencies has none). */
function esbuildFor(spec) {
  try {
    return require("esbuild");
  } catch {
    throw new Error(`${spec.entry} is not compiled, or changed since it was; esbuild is not installed to compile it: run npm run build in a full install`);
  }
}

/**
 * Writes esbuild's `result` as the compiled file of `outputs`, next to a record of every source of the clone and its
 * hash, each through a rename, so that processes compiling at the same moment never see half a file.
 * @returns the compiled file's absolute path
 */
function writeOutputs(result, outputs) {
  // This module is an input too: a change to how it compiles compiles everything again.
  const sources = ["lib/platform/compiled.mjs", ...Object.keys(result.metafile.inputs).filter((rel) => !rel.includes("node_modules/"))];
  const inputs = Object.fromEntries(sources.map((rel) => [rel, fileHash(path.join(root, rel))]));
  fs.mkdirSync(outDir, { recursive: true });
  const writeWhole = (file, text) => {
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, text);
    fs.renameSync(temp, file);
  };
  writeWhole(outputs.file, result.outputFiles[0].text);
  writeWhole(outputs.record, `${JSON.stringify({ root, inputs }, null, 2)}\n`);
  return outputs.file;
}

/**
 * Compiles `spec` (one of {@link COMPILED}) with esbuild: the project's own modules bundled (the `@/` paths of
 * tsconfig.json), the packages of node_modules and the clone's `.mjs` modules loaded from where they are.
 * @returns the compiled file's absolute path
 * @throws Error when esbuild is not installed (an install without devDependencies: `npm run build` compiles
 *   everything before), or the source does not compile
 */
export async function compile(spec) {
  const outputs = outputsOf(spec);
  const esbuild = esbuildFor(spec);
  try {
    return writeOutputs(await esbuild.build({ ...buildOptions(spec, outputs), plugins: [cloneModulesInPlace] }), outputs);
  } finally {
    await esbuild.stop(); // its service process would live on beside a start (a stop waits for no child of it)
  }
}

/**
 * The compiled JavaScript of `spec` (one of {@link COMPILED}), compiled first when missing or older than its sources
 * ({@link compile}).
 * @returns the compiled file's absolute path
 * @throws Error as {@link compile}
 */
export async function compiled(spec) {
  const outputs = outputsOf(spec);
  return isCurrent(outputs) ? outputs.file : compile(spec);
}

/**
 * The configuration check of server.mjs, in this process: lib/platform/config-values.ts `checkedValues(env, names)` as
 * compiled (CommonJS, so loaded synchronously).
 * @throws Error as {@link compile}
 */
export function configCheck() {
  const outputs = outputsOf(COMPILED.config);
  // esbuild's synchronous API, without the plugin: the configuration imports no .mjs module of the clone.
  if (!isCurrent(outputs)) {
    const esbuild = esbuildFor(COMPILED.config);
    try {
      writeOutputs(esbuild.buildSync(buildOptions(COMPILED.config, outputs)), outputs);
    } finally {
      void esbuild.stop(); // ends the service process the synchronous API keeps (ended at once; nothing to wait for)
    }
  }
  return require(outputs.file).checkedValues;
}
