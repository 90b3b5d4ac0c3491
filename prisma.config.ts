import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

/**
 * The pg driver adapter for the Prisma CLI, with one change: a migration script is sent to PostgreSQL whole,
 * as one simple-protocol query, instead of being cut at every ";" (the stock adapter's executeScript does
 * that, which breaks PL/pgSQL function bodies and any ";" inside a comment or a string). PostgreSQL runs a
 * multi-statement simple query as one implicit transaction, so a migration applies entirely or not at all.
 * This is what lets the database guards (triggers and functions) live in ordinary migrations
 * (docs/architecture.md "Consistency").
 */
class MigratingPg extends PrismaPg {
  override async connect() {
    const adapter = await super.connect();
    const pool = (adapter as unknown as { client: { query(sql: string): Promise<unknown> } }).client;
    const onError = (adapter as unknown as { onError(error: unknown): never }).onError.bind(adapter);
    adapter.executeScript = async (script: string) => {
      try {
        await pool.query(script);
      } catch (error) {
        onError(error);
      }
    };
    return adapter;
  }
}

// The CLI (generate, migrate deploy, migrate diff) runs through the pg driver adapter and the
// bundled WASM schema engine, so nothing is downloaded. Every CLI call needs DATABASE_URL set.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: async () => new MigratingPg({ connectionString: process.env.DATABASE_URL ?? "" }),
});
