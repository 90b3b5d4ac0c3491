// npm run seed [-- --json]: seeds the sandbox (README "Seeded sandbox"). With DATABASE_URL it seeds that database.
// Without it, the embedded database: through the running service when one serves it, otherwise opened here
// (migrated first, closed afterwards).
import fs from "node:fs";
import path from "node:path";
import { isEmpty, migrate, runningEmbeddedDb, seed, startEmbeddedDb } from "./db.mjs";

const args = process.argv.slice(2);
const { dataDirectory } = await import("../server.mjs");

async function main() {
  if (process.env.DATABASE_URL) return process.stdout.write(await seed(process.env.DATABASE_URL, args));
  const dataDir = path.join(dataDirectory(), "pglite");
  const running = await runningEmbeddedDb(dataDir);
  const embedded = running ? null : await startEmbeddedDb(dataDir);
  const url = running ?? embedded.url;
  try {
    if (embedded) await migrate(url, { lockHeld: true });
    const fresh = await isEmpty(url);
    const out = await seed(url, args, { DB_POOL_MAX: "1", SANDPIPER_EMBEDDED: "1" });
    process.stdout.write(out);
    // The first seed's output holds the only copy of the console passwords: `npm start` prints it again.
    if (fresh && !args.includes("--json")) fs.writeFileSync(path.join(dataDirectory(), "credentials.txt"), out, { mode: 0o600 });
  } finally {
    await embedded?.stop();
  }
}

main().catch((error) => {
  console.error(`npm run seed: ${error.message}`);
  process.exit(1);
});
