// Production build: Prisma client, the compiled scripts, then `next build` (no downloads, telemetry off).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { writeBuildStamp } from "./build-stamp.mjs";
import { compile, COMPILED } from "../lib/platform/compiled.mjs";
import { generateClient, root } from "./db.mjs";

// `--client-generated`: the caller has just generated the client (npm test, which type-checks beside this build:
// generating it again here would rewrite lib/platform/generated while tsc reads it).
if (!process.argv.includes("--client-generated")) generateClient();
// The TypeScript that runs outside Next.js (the configuration check, the seed, the password reset), compiled now so a
// start never needs esbuild or tsx (lib/platform/compiled.mjs).
for (const spec of Object.values(COMPILED)) await compile(spec);
const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
});
if (result.status === 0) writeBuildStamp(root);
process.exit(result.status ?? 1);
