import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// The CLI (generate, migrate deploy, migrate diff) runs through the pg driver adapter and the
// bundled WASM schema engine, so nothing is downloaded. Every CLI call needs DATABASE_URL set.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "" }),
});
