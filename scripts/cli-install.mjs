// npm run cli:install [-- <folder>]: puts the `sandpiper` command on the PATH from this clone (docs/guides/command-line.md
// "The sandpiper command"). It links bin/sandpiper.mjs into a folder (default ~/.local/bin); nothing is downloaded. `--remove`
// takes the link away again. A file of that name that is not this link is left alone.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const target = fileURLToPath(new URL("../bin/sandpiper.mjs", import.meta.url));
const args = process.argv.slice(2);
const remove = args.includes("--remove");
const folder = path.resolve(args.find((a) => !a.startsWith("--")) ?? path.join(os.homedir(), ".local", "bin"));
const link = path.join(folder, "sandpiper");

/** What is at `link` now: "none", "ours" (a symlink to this clone's command) or "other". */
function existing() {
  try {
    const stat = fs.lstatSync(link);
    return stat.isSymbolicLink() && path.resolve(folder, fs.readlinkSync(link)) === target ? "ours" : "other";
  } catch {
    return "none";
  }
}

const found = existing();
if (remove) {
  if (found === "ours") fs.unlinkSync(link);
  console.log(found === "ours" ? `Removed ${link}` : `Nothing to remove: ${link} is not a link to ${target}`);
  process.exit(0);
}
if (found === "other") {
  console.error(`${link} exists and is not a link to this clone's command: remove it, or name another folder (npm run cli:install -- <folder>)`);
  process.exit(1);
}
fs.mkdirSync(folder, { recursive: true });
fs.chmodSync(target, 0o755);
if (found === "none") fs.symlinkSync(target, link);
console.log(`${found === "ours" ? "Already linked" : "Linked"}: ${link} -> ${target}`);
const onPath = (process.env.PATH ?? "").split(path.delimiter).some((p) => p && path.resolve(p) === folder);
console.log(onPath ? "Run: sandpiper --help" : `${folder} is not on your PATH: add it (e.g. in ~/.bashrc or ~/.zshrc): export PATH="${folder}:$PATH"`);
