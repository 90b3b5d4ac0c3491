import pg from "pg";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/platform/generated/prisma/client";
import { issueApiKey, SCOPES } from "@/lib/domain/keys/api-keys";
import { createConsoleUser } from "@/lib/domain/users/create-console-user";
import { createMerchant, type NewMerchant } from "@/lib/domain/merchants/create-merchant";
import { freshIp } from "./fixtures";
import { recreateDatabase, startService } from "./global-setup";
import { TEST_DATABASE_URL } from "./env";

export type DedicatedResponse = { status: number; body: any; headers: Headers };
export type DedicatedMerchant = Awaited<ReturnType<Dedicated["merchant"]>>;

/**
 * A database of its own (TEST_DATABASE_URL + `_<suffix>`, recreated, migrated and seeded) and a service of its
 * own on it, for tests of state that is global to a service (operator switches, the store catalog, bank
 * accounts): other test files run in parallel on the shared database and rely on that state. Call `start()` in
 * `beforeAll` and `stop()` in `afterAll`; the tests of such a file run in order.
 */
export class Dedicated {
  readonly url: string;
  db!: PrismaClient;
  /** A node-postgres pool on this database (for services that take one, e.g. authenticateRequest). */
  pool!: pg.Pool;
  service!: { url: string; child: ChildProcess };

  constructor(suffix: string) {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `${url.pathname}_${suffix}`;
    this.url = url.toString();
  }

  /** Recreates, migrates and seeds the database, then starts the built service on it with `env` added. */
  async start(env: Record<string, string> = {}): Promise<void> {
    const { migrate, seed } = await import("../../scripts/db.mjs");
    await recreateDatabase(this.url);
    await migrate(this.url);
    await seed(this.url, ["--json"]);
    this.db = new PrismaClient({ adapter: new PrismaPg({ connectionString: this.url, max: 3 }) });
    this.pool = new pg.Pool({ connectionString: this.url, max: 2 });
    this.service = await startService({ DATABASE_URL: this.url, TRUSTED_PROXIES: "127.0.0.1,::1", EXPIRY_SWEEP_INTERVAL_MS: "500", DB_POOL_MAX: "5", ...env });
  }

  async stop(): Promise<void> {
    this.service?.child.kill("SIGTERM");
    await new Promise((r) => this.service?.child.once("exit", r));
    await this.db?.$disconnect();
    await this.pool?.end();
  }

  /** A merchant on this database with its own allow-listed source IP and a key with every scope. */
  async merchant(opts: Partial<NewMerchant> = {}) {
    const ip = freshIp();
    const merchant = await createMerchant(this.db, { name: `Dedicated ${randomUUID().slice(0, 8)}`, allowedIps: [ip], ...opts });
    const owner = await createConsoleUser(this.db, {
      username: `owner-${randomUUID().slice(0, 8)}`,
      password: "owner-password-1",
      role: "MERCHANT",
      merchantId: merchant.id,
    });
    const { key } = await issueApiKey(this.db, { merchantId: merchant.id, ownerId: owner.id, scopes: SCOPES });
    const request = async (path: string, body?: unknown, idempotencyKey = `k-${randomUUID()}`): Promise<DedicatedResponse> => {
      const res = await fetch(this.service.url + path, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "x-forwarded-for": ip,
          ...(body === undefined ? {} : { "content-type": "application/json", "idempotency-key": idempotencyKey }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json(), headers: res.headers };
    };
    return { merchant, key, request };
  }
}

/** `[status, error code]` of a response, for compact assertions. */
export const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];
