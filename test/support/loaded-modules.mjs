// Preloaded (`node --import`) into a service started by test/integration/lazy-modules.test.ts: every file Node.js
// loads is written, one per line, to `${SANDPIPER_LOADED_MODULES}.<pid>`: ES modules as they are resolved (this
// module, registered as a module hook, runs in Node.js's hooks thread too), CommonJS files (the module cache's keys)
// when the process exits. Next.js loads its serverExternalPackages either way.
import fs from "node:fs";
import { createRequire, register } from "node:module";
import { isMainThread } from "node:worker_threads";

const target = `${process.env.SANDPIPER_LOADED_MODULES}.${process.pid}`;

if (process.env.SANDPIPER_LOADED_MODULES && isMainThread) {
  register(import.meta.url);
  const cache = createRequire(import.meta.url).cache;
  process.on("exit", () => fs.appendFileSync(target, `${Object.keys(cache).join("\n")}\n`));
}

/** The module hook: records each resolved file, then resolves as Node.js would. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (process.env.SANDPIPER_LOADED_MODULES && resolved.url.startsWith("file:")) fs.appendFileSync(target, `${new URL(resolved.url).pathname}\n`);
  return resolved;
}
