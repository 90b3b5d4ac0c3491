import { defineConfig } from "vitest/config";
import path from "node:path";
import SlowFilesFirst from "./test/support/sequencer.mjs";

const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    // The longest integration files start first (test/support/sequencer.mjs).
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          // Property tests (matching, hostile input) do real work; a loaded 2-core machine needs headroom.
          testTimeout: 60_000,
          include: ["lib/**/*.test.ts", "clients/cli/src/**/*.test.ts", "test/unit/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          // CALLBACK_ALLOW_LOOPBACK: the tests save loopback receivers and drive the delivery job in-process.
          env: {
            DATABASE_URL: process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_it",
            DB_POOL_MAX: "5",
            CALLBACK_ALLOW_LOOPBACK: "1",
            LOG_LEVEL: "warn",
          },
          globalSetup: ["test/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: true,
          maxWorkers: 2,
          // Vitest 4 runs projects with different maxWorkers in separate groups: unit first, then integration.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
