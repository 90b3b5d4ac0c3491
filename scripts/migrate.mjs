// npm run db:migrate: apply migrations and database guards to DATABASE_URL.
import { ensureDatabaseOrExit, migrate } from "./db.mjs";

// DATABASE_URL through the one configuration (lib/platform/config.ts, checked by server.mjs `settings`): a refused value
// ends here with one line and exit code 1.
const { settings } = await import("../server.mjs");
const databaseUrl = settings().DATABASE_URL;
if (!databaseUrl) {
  console.error("DATABASE_URL is not set");
  process.exit(1);
}
await ensureDatabaseOrExit(databaseUrl);
await migrate(databaseUrl);
console.log("migrations applied");
