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
      for (const name of fs.readdirSync(full).sort()) if (!SKIP.has(name)) walk(path.join(rel, name));
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

/** Records that the build in `root/.next` was made from the current inputs (called after a successful build). */
export function writeBuildStamp(root) {
  fs.writeFileSync(stampFile(root), buildFingerprint(root));
}

/** True when `root/.next` holds a finished build made from the current inputs. */
export function isBuildCurrent(root) {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID")) || !fs.existsSync(stampFile(root))) return false;
  return fs.readFileSync(stampFile(root), "utf8") === buildFingerprint(root);
}
