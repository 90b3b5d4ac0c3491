// Whether the production build in .next matches the sources: `npm start` builds only when it does not.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** What the build reads: the app's sources, the schema, the public files and the build's configuration. */
const INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "prisma/schema.prisma",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
];
/** Folders under the inputs that the build writes or that hold no build input. */
const SKIP = new Set(["generated", "node_modules", ".next"]);

/** Every input file under `root` (relative path, size, modification time), in a stable order. */
function inputFiles(root) {
  const files = [];
  const walk = (rel) => {
    const full = path.join(root, rel);
    if (!fs.existsSync(full)) return;
    const stat = fs.statSync(full);
    if (stat.isDirectory()) {
      // Unit tests beside the code (lib/**/*.test.ts) are no build input: changing one does not make the build old.
      for (const name of fs.readdirSync(full).sort()) if (!SKIP.has(name) && !/\.test\.tsx?$/.test(name)) walk(path.join(rel, name));
    } else {
      files.push(`${rel}\0${stat.size}\0${Math.trunc(stat.mtimeMs)}`);
    }
  };
  for (const input of INPUTS) walk(input);
  return files;
}

/**
 * A fingerprint of the build's inputs under `root`: SHA-256 hex over every input file's path, size and
 * modification time (a changed, added or removed file changes it; reading contents is not needed).
 */
export function buildFingerprint(root) {
  return createHash("sha256").update(inputFiles(root).join("\n")).digest("hex");
}

const stampFile = (root) => path.join(root, ".next", "sandpiper-build-stamp");

/** Records that the build in `root/.next` was made from the current inputs (called after a successful build): the fingerprint and each input's entry. */
export function writeBuildStamp(root) {
  const files = inputFiles(root);
  fs.writeFileSync(stampFile(root), JSON.stringify({ fingerprint: createHash("sha256").update(files.join("\n")).digest("hex"), files }));
}

/** The stamp of the build in `root/.next`: its fingerprint and input entries (none for a stamp of the older, bare form), or null without one. */
function readStamp(root) {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID")) || !fs.existsSync(stampFile(root))) return null;
  const text = fs.readFileSync(stampFile(root), "utf8");
  try {
    const stamp = JSON.parse(text);
    return { fingerprint: String(stamp.fingerprint), files: Array.isArray(stamp.files) ? stamp.files.map(String) : [] };
  } catch {
    return { fingerprint: text.trim(), files: [] };
  }
}

/** True when `root/.next` holds a finished build made from the current inputs. */
export function isBuildCurrent(root) {
  return readStamp(root)?.fingerprint === buildFingerprint(root);
}

/**
 * Why the build in `root/.next` may not be used as it is: null when it is current, else one line naming the build
 * and the sources changed, added or removed since it was made (at most 5, then how many more), and what to run.
 */
export function staleBuildReason(root) {
  const stamp = readStamp(root);
  if (!stamp) return `no finished build in ${path.join(root, ".next")}: run \`npm run build\` first (npm test builds before it tests)`;
  const now = inputFiles(root);
  if (stamp.fingerprint === createHash("sha256").update(now.join("\n")).digest("hex")) return null;
  const pathOf = (entry) => entry.split("\0")[0];
  const before = new Set(stamp.files);
  const after = new Set(now);
  const changed = [...new Set([...now.filter((e) => !before.has(e)), ...stamp.files.filter((e) => !after.has(e))].map(pathOf))].sort();
  const builtAt = new Date(fs.statSync(stampFile(root)).mtimeMs).toISOString();
  const named = changed.length ? `${changed.slice(0, 5).join(", ")}${changed.length > 5 ? ` and ${changed.length - 5} more` : ""}` : "the inputs";
  return `the build in .next (made ${builtAt}) is older than the sources: ${named} changed since; run \`npm run build\` (npm test builds first)`;
}
