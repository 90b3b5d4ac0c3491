import type { FullConfig } from "@playwright/test";
import { freshSeededDatabase, startService, stopService } from "../../scripts/harness/service";
import { assertBuildCurrent } from "../../test/support/global-setup";
import { assertLocalDatabase } from "../../test/support/env";

/**
 * Fresh database (E2E_DATABASE_URL, default sandpiper_e2e), migrated and seeded; the built service
 * started on a free port. Specs read SANDPIPER_URL, SANDPIPER_SEED (the seed's JSON) and E2E_DATABASE_URL.
 */
export default async function globalSetup(_config: FullConfig) {
  const url = process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_e2e";
  assertLocalDatabase(url);
  await assertBuildCurrent();
  process.env.SANDPIPER_SEED = JSON.stringify(await freshSeededDatabase(url));
  process.env.E2E_DATABASE_URL = url;
  const { url: baseUrl, child } = await startService({
    DATABASE_URL: url,
    CALLBACK_ALLOW_LOOPBACK: "1",
    // A spec may send X-Forwarded-For to act from an address of its own (the sign-in limit per source IP);
    // the browser's own requests carry none and count as 127.0.0.1.
    TRUSTED_PROXIES: "127.0.0.1,::1",
    EXPIRY_SWEEP_INTERVAL_MS: "500",
    DELIVERY_POLL_INTERVAL_MS: "200",
  });
  process.env.SANDPIPER_URL = baseUrl;
  return async () => {
    await stopService(child);
  };
}
