// Preloaded (`node --import`) into a service started by test/integration/lazy-modules.test.ts: when the process
// exits, the files Node.js has loaded as CommonJS (the module cache's keys: how Next.js loads its
// serverExternalPackages) are written, one per line, to `${SANDPIPER_LOADED_MODULES}.<pid>`.
import fs from "node:fs";
import { createRequire } from "node:module";

const cache = createRequire(import.meta.url).cache;
const target = process.env.SANDPIPER_LOADED_MODULES;
if (target) process.on("exit", () => fs.writeFileSync(`${target}.${process.pid}`, Object.keys(cache).join("\n")));
