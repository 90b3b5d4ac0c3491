import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { getDb } from "@/lib/platform/db";
import { issueApiKey, SCOPES, type Scope } from "@/lib/domain/keys/api-keys";
import { createConsoleUser } from "@/lib/domain/users/create-console-user";
import { createMerchant, type NewMerchant } from "@/lib/domain/merchants/create-merchant";
import { savePricingVersion } from "@/lib/domain/pricing/profile-versions";
import { limitUsedSql } from "@/lib/domain/pricing/limits";
import { assertMatchesContract } from "./contract";

import { streamForwardToken } from "./stream";
import { waitUntil } from "../../scripts/harness/wait";
import { Prisma } from "@/lib/platform/generated/prisma/client";

export const db = getDb();
export const baseUrl = () => inject("baseUrl");

let ipCounter = Math.floor(Math.random() * 200);
/**
 * A fresh source IP per merchant (TEST-NET-3 and 2001:db8::/32 documentation ranges). The test server
 * trusts loopback as a proxy, so requests carry it in X-Forwarded-For: per-IP rate limits and allow-lists
 * behave as for a real merchant server, and tests stay parallel-safe.
 */
export function freshIp(): string {
  ipCounter = (ipCounter + 1) % 250;
  const a = Math.floor(Math.random() * 250) + 1;
  return `198.51.${a}.${ipCounter + 1}`;
}

export type ApiCall = {
  method?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  key?: string | null;
  idempotencyKey?: string | null;
  ip?: string;
  /** Another service instance's base url (fault tests); default: the suite's service. */
  base?: string;
};

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers; text: string };

/**
 * Sends one request to the running service. JSON body, bearer key and a fresh Idempotency-Key by default.
 * Every response under /v1 is checked against the OpenAPI document (test/support/contract.ts): one that does
 * not match throws a ContractViolation naming the path and the schema errors.
 */
export async function call<T = any>(path: string, opts: ApiCall & { defaultKey?: string; defaultIp?: string } = {}): Promise<ApiResponse<T>> {
  const method = opts.method ?? (opts.body !== undefined || opts.rawBody !== undefined ? "POST" : "GET");
  const headers: Record<string, string> = {};
  const key = opts.key === undefined ? opts.defaultKey : opts.key;
  if (key) headers.authorization = `Bearer ${key}`;
  const ip = opts.ip ?? opts.defaultIp;
  if (ip) headers["x-forwarded-for"] = ip;
  if (method !== "GET") {
    headers["content-type"] = "application/json";
    const idem = opts.idempotencyKey === undefined ? `test-${randomUUID()}` : opts.idempotencyKey;
    if (idem !== null) headers["idempotency-key"] = idem;
  }
  Object.assign(headers, opts.headers ?? {});
  const res = await fetch((opts.base ?? baseUrl()) + path, {
    method,
    headers,
    body: (opts.rawBody as BodyInit | undefined) ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
  });
  const text = await res.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  assertMatchesContract({ method, path, status: res.status, headers: res.headers, body });
  return { status: res.status, body, headers: res.headers, text };
}

export type TestMerchant = Awaited<ReturnType<typeof newMerchant>>;

/**
 * A fresh merchant with an owner user, an approver user, a full-scope key and a source IP on its
 * allow-list; `api()` calls the service as that merchant's server.
 */
export async function newMerchant(opts: Partial<NewMerchant> & { scopes?: Scope[] } = {}) {
  const ip = freshIp();
  const merchant = await createMerchant(db, { name: `Test ${randomUUID().slice(0, 8)}`, allowedIps: [ip], ...opts });
  const suffix = randomUUID().slice(0, 8);
  const owner = await createConsoleUser(db, { username: `owner-${suffix}`, password: "owner-password-1", role: "MERCHANT", merchantId: merchant.id });
  const approver = await createConsoleUser(db, { username: `approver-${suffix}`, password: "approver-password-1", role: "MERCHANT", merchantId: merchant.id });
  const key = await issueApiKey(db, { merchantId: merchant.id, ownerId: owner.id, scopes: opts.scopes ?? SCOPES });
  const api = <T = any>(path: string, o: ApiCall = {}) => call<T>(path, { ...o, defaultKey: key.key, defaultIp: ip });
  return { merchant, owner, approver, key: key.key, keyId: key.id, ip, api };
}

export { savePricingVersion, issueApiKey, createConsoleUser };

/**
 * A PENDING AED gateway deposit of `merchantId` (10.00 AED, expiring in ten minutes, a unique reference) written
 * straight into the database, for the states no request makes directly (a store payment without its checkout, one
 * past its expiry); `over` sets other columns.
 */
export function insertPendingPayment(merchantId: string, over: Partial<Prisma.PaymentUncheckedCreateInput> = {}) {
  return db.payment.create({
    data: {
      merchantId,
      reference: `row-${randomUUID()}`,
      amountMinor: 1000n,
      feeMinor: 0n,
      currency: "AED",
      method: "GATEWAY",
      direction: "DEPOSIT",
      status: "PENDING",
      businessDay: "2026-11-22",
      expiresAt: new Date(Date.now() + 600_000),
      ...over,
    },
  });
}

/**
 * A limit counter's usage in minor units: the sum of the slots of the profile's period (`D:<day>` or `M:<month>`),
 * clamped at 0, as every reader counts it (lib/domain/pricing/limits.ts `limitUsedSql`); 0n when it has no row.
 */
export async function limitUsed(profileId: string, period: string): Promise<bigint> {
  const [row] = await db.$queryRaw<{ used: bigint }[]>`SELECT ${limitUsedSql(Prisma.sql`${profileId}::uuid`, period)} AS used`;
  return row?.used ?? 0n;
}

/** A valid CreatePayment body with a unique reference. */
export function depositBody(over: Record<string, unknown> = {}): Record<string, any> {
  return { reference: `ref-${randomUUID()}`, amount: "100.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT", ...over };
}

/**
 * Waits until `check` returns a truthy value (polling every 100 ms), or fails after `timeoutMs`
 * (scripts/harness/wait.ts `waitUntil`, which names what is awaited; prefer it in new tests).
 */
export const eventually = <T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> =>
  waitUntil(check, { what: "the condition", timeoutMs });

/** The pointer a recorded request's error message ends with (docs/api.md "Request log"). */
/** The `forwardToken` of a new stream of `key` on the service under test (test/support/stream.ts). */
export const forwardTokenOf = (key: string) => streamForwardToken(baseUrl(), key, { "x-forwarded-for": freshIp() });

export const LOG_POINTER = / See GET \/v1\/requests\/[0-9a-f-]{36} or the console's Requests page\.$/;

/** An error answer's message without the request-log pointer (and the full stop it added), to compare texts. */
export function messageOf(res: ApiResponse): string {
  const message: string = res.body.error.message;
  return LOG_POINTER.test(message) ? message.replace(LOG_POINTER, "").replace(/\.$/, "") : message;
}
