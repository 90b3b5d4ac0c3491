// npm run db:migrate: apply migrations and database guards to DATABASE_URL.
import { ensureDatabaseOrExit, migrate } from "./db.mjs";

if (!process.env.DATABASE_URL) {
  console.error("DATABASE_URL is not set");
  process.exit(1);
}
await ensureDatabaseOrExit(process.env.DATABASE_URL);
await migrate(process.env.DATABASE_URL);
console.log("migrations applied");
