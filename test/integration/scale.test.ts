import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey, SCOPES } from "@/lib/domain/keys/api-keys";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { PrismaClient } from "@/lib/platform/generated/prisma/client";
import { createConsoleUser } from "@/lib/domain/users/create-console-user";
import { createMerchant } from "@/lib/domain/merchants/create-merchant";
import { TEST_DATABASE_URL } from "../support/env";
import { recreateDatabase, stopService } from "../support/global-setup";
import { startReceiver } from "../support/receiver";
import { signIn } from "../support/console-http";
import { listenerForward, streamForwardToken } from "../support/stream";
import { MAX_FAILED_SIGN_INS } from "@/lib/domain/users/sign-in";
import { waitUntil } from "../../scripts/harness/wait";
import { present } from "../../scripts/harness/present";

// More than one process (docs/guides/operate-sandpiper.md "Running more than one process"): two instances of `npm start` on one empty
// database, started at the same moment, each with SANDPIPER_WORKERS=2 and rate limits in Redis. Both come up;
// together they keep one idempotency record, one budget per key, one delivery per callback and one expiry. Neither is
// given NEXTAUTH_SECRET: a console session and a listener's forward token made on one are used on the other.

const root = path.resolve(__dirname, "../..");
const url = (() => {
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `${u.pathname}_scale`;
  return u.toString();
})();
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const instances: { child: ChildProcess; url: string; output: string[] }[] = [];
let db: PrismaClient;
let key: string;
let merchantId: string;
let ipCounter = 0;
const freshIp = () => `192.0.2.${(ipCounter++ % 250) + 1}`;

async function freePort(): Promise<number> {
  const { freePort: free } = await import("../../scripts/db.mjs");
  return free();
}

/** `npm start` (scripts/start.mjs, the existing build) on the shared database with two workers. */
async function startInstance(): Promise<{ child: ChildProcess; url: string; output: string[] }> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, [path.join(root, "scripts", "start.mjs"), "--no-build"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      SANDPIPER_WORKERS: "2",
      REDIS_URL,
      CALLBACK_ALLOW_LOOPBACK: "1",
      TRUSTED_PROXIES: "127.0.0.1,::1",
      EXPIRY_SWEEP_INTERVAL_MS: "300",
      DELIVERY_POLL_INTERVAL_MS: "200",
      DB_POOL_MAX: "4",
      LOG_LEVEL: "warn",
      // No NEXTAUTH_SECRET: both instances read the one the database keeps (docs/operating.md "Scaling"), each with
      // a data folder of its own.
      NEXTAUTH_SECRET: "",
      SANDPIPER_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "scale-")),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout!, child.stderr!]) stream.setEncoding("utf8").on("data", (t: string) => output.push(...t.split("\n").filter(Boolean)));
  return { child, url: `http://127.0.0.1:${port}`, output };
}

async function answers(base: string, child: ChildProcess, output: string[]): Promise<void> {
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`instance exited with ${child.exitCode}`);
      // One worker answering is not the whole instance: the primary prints its banner once every worker listens.
      const banner = output.some((line) => /workers on /.test(line));
      return banner && (await fetch(`${base}/v1/health-check-probe`).catch(() => null))?.status === 404;
    },
    { what: "the instance to come up", timeoutMs: 150_000, intervalMs: 250 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}:\n${output.join("\n")}`, { cause: error });
  });
}

beforeAll(async () => {
  await recreateDatabase(url); // empty: the instances migrate and seed it themselves
  instances.push(await startInstance(), await startInstance());
  await Promise.all(instances.map((i) => answers(i.url, i.child, i.output)));
  db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 3 }) });
  const merchant = await createMerchant(db, { name: `Scale ${randomUUID().slice(0, 8)}`, allowedIps: [] });
  const owner = await createConsoleUser(db, {
    username: `scale-${randomUUID().slice(0, 8)}`,
    password: "owner-password-1",
    role: "MERCHANT",
    merchantId: merchant.id,
  });
  merchantId = merchant.id;
  key = (await issueApiKey(db, { merchantId, ownerId: owner.id, scopes: SCOPES })).key;
}, 240_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => stopService(i.child, 20_000)));
  await db?.$disconnect();
});

/** A request to instance `n % 2`, from a source address of its own. */
async function api(n: number, pathname: string, init: { body?: unknown; idempotencyKey?: string; key?: string } = {}) {
  const res = await fetch(present(instances[n % 2], "instances[n % 2]").url + pathname, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${init.key ?? key}`,
      "x-forwarded-for": freshIp(),
      ...(init.body === undefined ? {} : { "content-type": "application/json", "idempotency-key": init.idempotencyKey ?? `scale-${randomUUID()}` }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const deposit = () => ({ reference: `scale-${randomUUID()}`, amount: "25.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });

describe("two instances, two workers each, one database", () => {
  it("failed sign-ins of one user name from one address count across both instances and their workers: the fifth locks it from that address on every one", async () => {
    // The first sign-ins of fresh workers: each creates its Redis client now, and what it counts while that client
    // connects waits for the connection (lib/platform/rate-limits/store.ts), so even these count in the shared budget.
    const name = `nobody-${randomUUID().slice(0, 8)}`;
    const urls: string[] = [];
    for (let n = 0; n < MAX_FAILED_SIGN_INS; n++)
      urls.push((await signIn(name, "guess", "198.51.100.7", present(instances[n % 2], "instances[n % 2]").url)).body.url);
    expect(
      urls.slice(0, -1).every((u) => u.includes("error=invalid")),
      urls.join("\n"),
    ).toBe(true);
    expect(urls.at(-1)).toContain("error=locked");
    for (const instance of instances) expect((await signIn(name, "guess", "198.51.100.7", instance.url)).body.url).toContain("error=locked");
    // Another address is not locked out by the first one's guesses.
    for (const instance of instances) expect((await signIn(name, "guess", "198.51.100.77", instance.url)).body.url).toContain("error=invalid");
  }, 60_000);

  it("a console session made on one instance is used on the other, and so is a listener's forward token (one secret, kept in the database)", async () => {
    const owner = await db.consoleUser.findFirstOrThrow({ where: { merchantId } });
    const session = await signIn(owner.username, "owner-password-1", freshIp(), present(instances[0], "instances[0]").url);
    expect(session.cookie, JSON.stringify(session.body)).not.toBeNull();
    for (const instance of instances) {
      const page = await fetch(`${instance.url}/api/console/payments?page=1&limit=1`, { headers: { cookie: session.cookie! }, redirect: "manual" });
      expect(page.status, `${instance.url}: ${await page.clone().text()}`).toBe(200);
      expect((await page.json()).total).toBeTypeOf("number");
    }
    const secrets = await db.setting.findMany({ where: { key: "nextauth-secret" } });
    expect(secrets).toHaveLength(1);

    const created = await api(0, "/v1/payments", { body: deposit() });
    expect((await api(0, `/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
    const event = await db.event.findFirstOrThrow({ where: { paymentId: created.body.id } });
    const forwardToken = await streamForwardToken(present(instances[0], "instances[0]").url, key, { "x-forwarded-for": freshIp() });
    expect(forwardToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const recorded = await fetch(`${present(instances[1], "instances[1]").url}/v1/events/forwards`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "x-forwarded-for": freshIp(), "content-type": "application/json" },
      body: JSON.stringify({ forwardToken, forwards: [listenerForward(event.id)] }),
    });
    expect(recorded.status, await recorded.clone().text()).toBe(200);
    expect((await recorded.json()).recorded).toBe(1);
    for (const instance of instances) expect(instance.output.join("\n")).not.toMatch(/JWT|JWE|decryption/i);
  }, 60_000);

  it("both instances started at the same moment came up, one after the other migrating; each runs two workers", () => {
    for (const i of instances) expect(i.output.join("\n")).toMatch(/2 workers on .*rate limits counted in redis/);
  });

  it("50 concurrent identical creates spread over both instances give one payment", async () => {
    const body = deposit();
    const idempotencyKey = `scale-same-${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => api(n, "/v1/payments", { body, idempotencyKey })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotency-replayed") === "true")).toHaveLength(49);
    expect(await db.payment.count({ where: { merchantId, reference: body.reference } })).toBe(1);
  }, 60_000);

  it("400 requests with one key within a minute get exactly 300 non-429 answers across both instances", async () => {
    const owner = await db.consoleUser.findFirstOrThrow({ where: { merchantId } });
    const budgetKey = (await issueApiKey(db, { merchantId, ownerId: owner.id, scopes: SCOPES })).key;
    const statuses: number[] = [];
    for (let n = 0; n < 400; n += 20) {
      statuses.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => api(n + j, "/v1/payments?limit=1", { key: budgetKey })))).map((a) => a.status));
    }
    expect(statuses.filter((s) => s !== 429)).toHaveLength(300);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
  }, 60_000);

  it("each callback is delivered once and each expiry applied once", async () => {
    const rx = await startReceiver();
    await setCallbackUrl(db, { merchantId, url: rx.url });
    const completed: string[] = [];
    await Promise.all(
      Array.from({ length: 30 }, async (_, n) => {
        const created = await api(n, "/v1/payments", { body: deposit() });
        const done = await api(n + 1, `/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: n % 2 ? "SUCCEEDED" : "FAILED" } });
        expect(done.status).toBe(200);
        completed.push(created.body.id);
      }),
    );
    const expiring = await Promise.all(Array.from({ length: 20 }, async (_, n) => (await api(n, "/v1/payments", { body: deposit() })).body.id as string));
    await db.$executeRaw`UPDATE payments SET expires_at = now() - interval '1 second' WHERE id = ANY(${expiring}::uuid[])`;
    await rx.waitFor(50, 30_000);
    // waits on purpose: proves that no second delivery arrives; nothing marks the end of a window in which one could
    await new Promise((r) => setTimeout(r, 3000));
    const ids = rx.received.map((r) => String(r.headers["x-service-event-id"]));
    expect(ids).toHaveLength(50);
    expect(new Set(ids).size).toBe(50);
    const expired = await db.payment.findMany({ where: { id: { in: expiring } }, select: { status: true } });
    expect(expired.every((p) => p.status === "EXPIRED")).toBe(true);
    expect(await db.event.count({ where: { paymentId: { in: expiring }, type: "payment.expired" } })).toBe(20);
    expect(await db.deliveryAttempt.count({ where: { delivery: { merchantId } } })).toBe(50);
    await rx.close();
  }, 90_000);
});
