// Records the other platforms' optional native packages in package-lock.json.
// This machine's registry serves only the Linux x64 builds of packages such as @next/swc-* and
// @tailwindcss/oxide-*, so `npm install` cannot record the others and `npm ci` then refuses the lockfile
// as out of sync (npm/cli #9846). The entries added here carry the version declared by the parent
// package, `optional: true` and the platform the package name states, so npm ci skips them on Linux.
// Run after `npm install` changes the lockfile: node scripts/lock-foreign-optionals.mjs
import fs from "node:fs";

const file = `${process.cwd()}/package-lock.json`;
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const packages = lock.packages;
const PLATFORM = [
  [/android/, "android"],
  [/openharmony/, "openharmony"],
  [/sunos/, "sunos"],
  [/netbsd/, "netbsd"],
  [/openbsd/, "openbsd"],
  [/aix/, "aix"],
  [/darwin/, "darwin"],
  [/freebsd/, "freebsd"],
  [/win32/, "win32"],
  [/linux/, "linux"],
  [/wasm32|wasi/, null],
];
const CPU = [
  [/arm64|aarch64/, "arm64"],
  [/-arm-|arm-gnueabihf|-arm$/, "arm"],
  [/x64/, "x64"],
  [/ia32/, "ia32"],
  [/wasm32/, "wasm32"],
];
let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  if (!path) continue;
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key] || packages[`${path}/node_modules/${name}`]) continue;
    const os = PLATFORM.find(([re]) => re.test(name))?.[1];
    const cpu = CPU.find(([re]) => re.test(name))?.[1];
    if (os === undefined) continue; // not a platform package: leave it to npm
    const entry = { version, optional: true };
    if (meta.dev) entry.dev = true;
    if (os) entry.os = [os];
    if (cpu) entry.cpu = [cpu];
    packages[key] = entry;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(`recorded ${added} optional platform packages`);
