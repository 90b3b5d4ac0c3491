// Production build: Prisma client, then `next build` (no downloads, telemetry off).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { generateClient, root } from "./db.mjs";

generateClient();
const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
});
process.exit(result.status ?? 1);
