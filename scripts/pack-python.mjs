// The `sandpiper` Python package (clients/python; docs/guides/test-in-your-own-suite.md "Python"), built by
// `npm run pack:clients` (scripts/pack-clients.mjs) into a wheel beside the npm tarballs, with the OpenAPI document's
// version like them. It is built by pip with the build backend its pyproject.toml names (hatchling), from pip's
// configured index: in the Python that runs `python3` when hatchling is installed there, else in pip's isolated build
// environment. Nothing in the clone changes: the package is built from a staging copy.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
const pythonDir = path.join(root, "clients", "python");
/** What of clients/python the wheel is built from. */
const SOURCES = ["pyproject.toml", "README.md", "LICENSE", "src"];
/** The Python to build with: PYTHON when set, else python3. */
const python = () => process.env.PYTHON || "python3";

/**
 * The wheel's file name for `version` (PEP 427: the normalised name, version, a pure-Python tag).
 * @param {string} version e.g. "1.5.0"
 */
export const wheelName = (version) => `sandpiper-${version}-py3-none-any.whl`;

/**
 * Builds the wheel of clients/python, as version `version`, into `out`.
 * @param {string} out the folder (created when missing); a wheel of the same name there is replaced
 * @param {string} version the OpenAPI document's info.version
 * @returns {string | null} the wheel's absolute path, or null when there is no Python 3 with pip (said on stdout)
 * @throws Error with pip's last lines of output when the build fails (a build backend not in reach, for one)
 */
export function packPython(out, version) {
  const probe = spawnSync(python(), ["-m", "pip", "--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    console.log(`sandpiper (Python): skipped, ${python()} with pip is not on this machine (install python3 and python3-pip to build the wheel)`);
    return null;
  }
  // A wheel built from the same sources before is reused (a test run packs several times): the wheel is made of
  // them alone, with fixed file times.
  const cached = path.join(root, "node_modules", ".cache", "sandpiper-python", `${version}-${sourcesHash()}`, wheelName(version));
  const wheel = path.join(out, wheelName(version));
  if (fs.existsSync(cached)) {
    fs.mkdirSync(out, { recursive: true });
    fs.copyFileSync(cached, wheel);
    return wheel;
  }
  const stage = path.join(out, ".stage-python");
  fs.rmSync(stage, { recursive: true, force: true });
  for (const name of SOURCES)
    fs.cpSync(path.join(pythonDir, name), path.join(stage, name), { recursive: true, filter: (src) => !/__pycache__|\.pyc$/.test(src) });
  const pyproject = fs.readFileSync(path.join(stage, "pyproject.toml"), "utf8");
  if (!/^version = "[^"]*"$/m.test(pyproject)) throw new Error('clients/python/pyproject.toml has no line version = "..."');
  fs.writeFileSync(path.join(stage, "pyproject.toml"), pyproject.replace(/^version = "[^"]*"$/m, `version = "${version}"`));
  fs.rmSync(wheel, { force: true });
  // hatchling already installed: no isolated environment to install (a second, offline); else pip installs it there.
  const isolated = spawnSync(python(), ["-c", "import hatchling.build"], { stdio: "ignore" }).status !== 0;
  const built = spawnSync(python(), ["-m", "pip", "wheel", "--no-deps", ...(isolated ? [] : ["--no-build-isolation"]), "--wheel-dir", out, stage], {
    encoding: "utf8",
    // A machine whose default index is out of reach (a closed network with a local index configured) fails each
    // look-up there at once instead of retrying it five times; the build environment's pip reads this too.
    env: { ...process.env, PIP_RETRIES: process.env.PIP_RETRIES ?? "0", PIP_DISABLE_PIP_VERSION_CHECK: "1" },
  });
  fs.rmSync(stage, { recursive: true, force: true });
  if (built.status !== 0 || !fs.existsSync(wheel)) {
    const output = `${built.stdout ?? ""}${built.stderr ?? ""}`.trim().split("\n").slice(-25).join("\n");
    throw new Error(`the Python wheel did not build (${python()} -m pip wheel, exit ${built.status ?? built.error?.message}):\n${output}`);
  }
  fs.mkdirSync(path.dirname(cached), { recursive: true });
  fs.copyFileSync(wheel, cached);
  return wheel;
}

/** A hash of the files the wheel is built from (their paths and bytes; compiled Python left out), hex. */
function sourcesHash() {
  const hash = createHash("sha256");
  for (const name of SOURCES) {
    const full = path.join(pythonDir, name);
    const files = fs.statSync(full).isDirectory() ? fs.readdirSync(full, { recursive: true }).map((rel) => path.join(name, String(rel))) : [name];
    for (const rel of files.sort()) {
      if (/__pycache__|\.pyc$/.test(rel) || !fs.statSync(path.join(pythonDir, rel)).isFile()) continue;
      hash.update(rel).update(fs.readFileSync(path.join(pythonDir, rel)));
    }
  }
  return hash.digest("hex").slice(0, 16);
}
