// `node scripts/run-compiled.mjs <name> [args...]`: runs one of the clone's TypeScript commands (lib/platform/compiled.mjs
// COMPILED, e.g. `resetPassword` for npm run console:reset-password) as compiled JavaScript, in a child process with
// the same arguments, standard streams and exit code; no tsx.
import { spawnSync } from "node:child_process";
import { COMPILED, compiled } from "../lib/platform/compiled.mjs";

const [name, ...args] = process.argv.slice(2);
const spec = Object.hasOwn(COMPILED, name) ? COMPILED[name] : null;
if (!spec) {
  console.error(`usage: node scripts/run-compiled.mjs <${Object.keys(COMPILED).join("|")}> [args...]`);
  process.exit(2);
}
const result = spawnSync(process.execPath, [await compiled(spec), ...args], { stdio: "inherit" });
if (result.error) console.error(`${spec.entry} did not run: ${result.error.message}`);
process.exit(result.status ?? 1);
