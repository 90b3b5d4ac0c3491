// Direct database setup for the console e2e specs, through the service's own lib code.
// Run as `node --import tsx e2e/support/lib-task.ts <task> '<json args>'` with DATABASE_URL set; prints one JSON line.
// (Playwright's loader cannot import the ESM Prisma client, so specs call this in a child process.)
import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/platform/db";
import { issueApiKey, SCOPES } from "@/lib/domain/keys/api-keys";
import { createConsoleUser } from "@/lib/domain/users/create-console-user";
import { createMerchant } from "@/lib/domain/merchants/create-merchant";
import { savePricingVersion } from "@/lib/domain/pricing/profile-versions";

const db = getDb();

const tasks: Record<string, (args: any) => Promise<unknown>> = {
  /** An ACTIVE merchant with an owner (holding a full-scope key) and an approver, both MERCHANT users. */
  async merchant(args: { name?: string; enabledCurrencies?: string[] }) {
    const suffix = randomUUID().slice(0, 8);
    const merchant = await createMerchant(db, { name: args.name ?? `E2E ${suffix}`, allowedIps: ["127.0.0.1"], enabledCurrencies: args.enabledCurrencies });
    const password = `pw-${randomUUID()}`;
    const owner = await createConsoleUser(db, { username: `owner-${suffix}`, password, role: "MERCHANT", merchantId: merchant.id });
    const approver = await createConsoleUser(db, { username: `approver-${suffix}`, password, role: "MERCHANT", merchantId: merchant.id });
    const key = await issueApiKey(db, { merchantId: merchant.id, ownerId: owner.id, scopes: SCOPES, name: "e2e" });
    return { merchantId: merchant.id, name: merchant.name, owner: owner.username, approver: approver.username, password, key: key.key, keyId: key.id };
  },
  /** A pricing profile version (amount fields in minor units as decimal text). */
  async pricing(args: Parameters<typeof savePricingVersion>[1]) {
    const v = await savePricingVersion(db, args);
    return { profileId: v.profileId, version: v.version };
  },
  /** Deliveries of a merchant with their state. */
  async deliveries(args: { merchantId: string }) {
    return db.delivery.findMany({ where: { merchantId: args.merchantId }, select: { id: true, state: true, attemptCount: true } });
  },
};

const [name = "", json] = process.argv.slice(2);
const task = tasks[name];
if (!task) throw new Error(`unknown task "${name}": use ${Object.keys(tasks).join(", ")}`);
task(JSON.parse(json ?? "{}"))
  .then(async (result) => {
    process.stdout.write(JSON.stringify(result, (_k, v) => (typeof v === "bigint" ? v.toString() : v)) + "\n");
    await db.$disconnect();
  })
  .catch(async (error) => {
    console.error(error);
    await db.$disconnect();
    process.exit(1);
  });
