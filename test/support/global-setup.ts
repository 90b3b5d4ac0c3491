import type { TestProject } from "vitest/node";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { freshSeededDatabase, startService, stopService, type Seeded } from "../../scripts/harness/service";
import { assertLocalDatabase, TEST_DATABASE_URL } from "./env";

// Integration tests run over real HTTP against the built service on real PostgreSQL.
const root = path.resolve(__dirname, "../..");

/**
 * Refuses to test an old build: the integration and browser tests call the built service over HTTP but import the
 * current lib/ directly, so a build older than the sources would test code that is not the one in the tree.
 * @throws Error with one line naming the build and the newer sources (scripts/build-stamp.mjs `staleBuildReason`)
 */
export async function assertBuildCurrent(): Promise<void> {
  const { staleBuildReason } = await import("../../scripts/build-stamp.mjs");
  const reason = staleBuildReason(root);
  if (reason) throw new Error(`tests refuse to run against this build: ${reason}`);
}

export { recreateDatabase, startService, stopService, type StartedService } from "../../scripts/harness/service";

let service: ChildProcess | undefined;

export default async function setup(project: TestProject) {
  assertLocalDatabase(TEST_DATABASE_URL);
  await assertBuildCurrent();
  // The seed gives the shared parts (bank account, today's USD->AED rate, catalog) and proves npm run seed.
  const seeded = await freshSeededDatabase(TEST_DATABASE_URL);
  project.provide("seed", seeded);
  const started = await startService({
    DATABASE_URL: TEST_DATABASE_URL,
    CALLBACK_ALLOW_LOOPBACK: "1",
    TRUSTED_PROXIES: "127.0.0.1,::1",
    EXPIRY_SWEEP_INTERVAL_MS: "500",
    DELIVERY_POLL_INTERVAL_MS: "200",
    DB_POOL_MAX: "20",
  });
  service = started.child;
  project.provide("baseUrl", started.url);
  return async () => {
    if (service) await stopService(service);
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    seed: Seeded;
  }
}
