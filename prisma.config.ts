import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// The CLI generates the client (scripts/db.mjs generateClient) through the pg driver adapter and the bundled WASM
// engines, so nothing is downloaded; it needs some DATABASE_URL set and connects to none. Migrations are applied by
// scripts/db.mjs `migrate` (npm run db:migrate, npm start), not by `prisma migrate deploy`: each migration.sql is
// sent whole (PL/pgSQL bodies intact) and recorded in `_prisma_migrations` as the CLI records it
// (docs/operating.md "Migrations").
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "" }),
});
