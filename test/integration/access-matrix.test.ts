import { beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "@/lib/domain/keys/api-keys";
import type { ErrorCode } from "@/lib/contract/errors";
import type { Operation } from "@/lib/application/openapi/operations";
import { call, db, freshIp, issueApiKey, type TestMerchant } from "../support/fixtures";
import { footprint, implementedOperations, merchantFor, pathOf, recordFor, validBody } from "../support/operations";

// docs/api.md "Authentication": every endpoint x key state x source IP answers the documented status, in pipeline order
// (401 before the scope's 403 before the allow-list's 403), and never shows another merchant's data. Driven by
// the operations registry: an endpoint is covered as soon as its route file exists.

const KEY_STATES = ["valid", "expired", "revoked", "other merchant", "missing scope", "inactive merchant"] as const;
const SOURCES = ["an allow-listed IP", "a non-allow-listed IP"] as const;
type KeyState = (typeof KEY_STATES)[number];
type Source = (typeof SOURCES)[number];
type Expected = { status: number; code?: ErrorCode };

/** What a request gets (docs/api.md "Authentication" 2-6, "Endpoints"). */
function expected(op: Operation, keyState: KeyState, source: Source): Expected {
  if (keyState === "expired" || keyState === "revoked" || keyState === "inactive merchant") return { status: 401, code: "INVALID_API_KEY" };
  if (keyState === "missing scope") return { status: 403, code: "INSUFFICIENT_SCOPE" };
  if (op.allowList && source === "a non-allow-listed IP") return { status: 403, code: "IP_NOT_ALLOWED" };
  if (keyState === "other merchant" && op.pathId) return { status: 404, code: "NOT_FOUND" };
  return { status: op.success.status };
}

type World = {
  a: TestMerchant;
  aRecord?: string;
  b: TestMerchant;
  inactive: TestMerchant;
  inactiveRecord?: string;
  keys: Record<KeyState, { key: string; merchant: TestMerchant }>;
};

async function world(op: Operation): Promise<World> {
  const a = await merchantFor(op);
  const aRecord = await recordFor(op, a);
  const b = await merchantFor(op);
  const inactive = await merchantFor(op);
  const inactiveRecord = await recordFor(op, inactive);
  await db.merchant.update({ where: { id: inactive.merchant.id }, data: { status: "INACTIVE" } });
  const extraKey = async (scopes: readonly (typeof SCOPES)[number][]) => issueApiKey(db, { merchantId: a.merchant.id, ownerId: a.owner.id, scopes });
  const expired = await extraKey(SCOPES);
  await db.apiKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const revoked = await extraKey(SCOPES);
  await db.apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
  const narrow = await extraKey(SCOPES.filter((s) => s !== op.scope));
  return {
    a,
    aRecord,
    b,
    inactive,
    inactiveRecord,
    keys: {
      valid: { key: a.key, merchant: a },
      expired: { key: expired.key, merchant: a },
      revoked: { key: revoked.key, merchant: a },
      "other merchant": { key: b.key, merchant: b },
      "missing scope": { key: narrow.key, merchant: a },
      "inactive merchant": { key: inactive.key, merchant: inactive },
    },
  };
}

for (const op of implementedOperations) {
  describe(`access matrix: ${op.method} ${op.path} (scope ${op.scope}${op.allowList ? ", IP allow-list" : ""})`, () => {
    let w: World;
    beforeAll(async () => {
      w = await world(op);
    });

    for (const keyState of KEY_STATES) {
      for (const source of SOURCES) {
        const want = expected(op, keyState, source);
        it(`${keyState} key from ${source} -> ${want.status}${want.code ? ` ${want.code}` : ""}`, async () => {
          const { key, merchant } = w.keys[keyState];
          const record = keyState === "inactive merchant" ? w.inactiveRecord : w.aRecord;
          const ip = source === "an allow-listed IP" ? merchant.ip : freshIp();
          const before = [await footprint(w.a.merchant.id), await footprint(merchant.merchant.id)];
          const body = op.body ? await validBody(op, key) : undefined;
          const res = await call(pathOf(op, record), { method: op.method, ...(body ? { body } : {}), key, ip });

          expect(res.status, res.text).toBe(want.status);
          if (want.code) {
            expect(res.body.error.code).toBe(want.code);
            expect([await footprint(w.a.merchant.id), await footprint(merchant.merchant.id)], "a refused request writes nothing").toEqual(before);
          }
          if (keyState === "other merchant") {
            // Never another merchant's data: nothing of merchant A in the answer; what it shows is B's own.
            expect(res.text).not.toContain(w.a.merchant.id);
            if (record) expect(res.text).not.toContain(record);
            expect(await footprint(w.a.merchant.id), "merchant A's records are untouched").toEqual(before[0]);
            if (res.status < 300) {
              const items: { merchantId?: string; id: string }[] = Array.isArray(res.body.items) ? res.body.items : [res.body];
              for (const item of items) if (item.merchantId) expect(item.merchantId).toBe(w.b.merchant.id);
            }
          }
          if (keyState !== "valid" && want.code) expect(res.text).not.toContain(w.a.merchant.id);
        });
      }
    }
  });
}

it("the access matrix covers every implemented operation of the registry", () => {
  expect(implementedOperations.length).toBeGreaterThanOrEqual(4);
});
