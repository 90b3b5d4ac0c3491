import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { Prisma, PrismaClient } from "@/lib/platform/generated/prisma/client";
import { eventually } from "../support/fixtures";
import { Dedicated, errorOf } from "../support/dedicated";
import { storeBody } from "../support/store";
import { authenticateRequest } from "@/lib/domain/keys/api-keys";
import { transaction } from "@/lib/platform/db";
import { savePricingVersion } from "@/lib/domain/pricing/profile-versions";
import { type NewMerchant } from "@/lib/domain/merchants/create-merchant";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { settingsOf, updateSettings } from "@/lib/domain/settings/service-settings";
import { storeClosure, storeOpenSql } from "@/lib/simulators/store/availability";
import { catalogVersion, storeCatalogProblem } from "@/lib/simulators/test-store/catalog-cache";
import {
  deactivateCatalogItem,
  exportCatalogCsv,
  importCatalogCsv,
  listCatalogItems,
  setCatalogItemActive,
  upsertCatalogItem,
} from "@/lib/simulators/test-store/catalog-admin";
import type { CreateStorePayment } from "@/lib/contract/schemas/api/store-payments";
import { createStorePayment as createInProcess } from "@/lib/simulators/store/create-store-payment";

// Store state that is global to a service: the operator's store switches (503 STORE_DISABLED /
// STORE_UNAVAILABLE), the store's catalog (503 NO_ROUTE when empty; admin functions; the catalog version
// that invalidates the store's cached matching index). Other test files run in parallel against the shared
// test database and rely on the seeded catalog and open switches, so this file has its own database
// (TEST_DATABASE_URL + "_store", migrated and seeded; test/support/dedicated.ts) and its own service on it; its
// tests run in order.

const dedicated = new Dedicated("store");
let db: PrismaClient;
const actor = { id: null, username: "test operator" };

beforeAll(async () => {
  await dedicated.start({ STORE_HANDOFF_POLL_INTERVAL_MS: "200" });
  db = dedicated.db;
}, 180_000);
afterAll(() => dedicated.stop());

/** A merchant on the dedicated database, with its allow-listed IP and a full key. */
const merchant = (opts: Partial<NewMerchant> = {}) => dedicated.merchant(opts);
const checkoutState = async (m: Awaited<ReturnType<typeof merchant>>, id: string) => (await m.request(`/v1/payments/${id}`)).body.checkout;
const waitFor = (m: Awaited<ReturnType<typeof merchant>>, id: string, state: string) =>
  eventually(async () => ((await checkoutState(m, id)).state === state ? checkoutState(m, id) : null), 15_000);

describe("the store's largest charge (global amount limit raised; dedicated service)", () => {
  it("an amount whose AED charge is above AED 9,999,999,999.99 is refused at creation with 400 AMOUNT_OUT_OF_RANGE", async () => {
    await updateSettings(db, { globalMaxAmount: "9999999999.99" });
    try {
      const m = await merchant();
      const day = dubaiDay();
      await db.fxRate.upsert({
        where: { base_quote_day: { base: "EUR", quote: "AED", day } },
        create: { base: "EUR", quote: "AED", day, rate: "4.0000" },
        update: {},
      });
      await savePricingVersion(db, {
        merchantId: m.merchant.id,
        currency: "EUR",
        channel: "GATEWAY",
        direction: "DEPOSIT",
        chargeCurrency: "AED",
        settlementCurrency: "EUR",
        markupBps: 0,
        bufferBps: 0,
        commissionBps: 0,
        reason: "test: EUR charged in AED at 4",
      });
      // 2,500,000,000.00 EUR x 4 = AED 10,000,000,000.00: one fil above the largest charge.
      const over = await m.request("/v1/store-payments", storeBody({ amount: "2500000000.00", currency: "EUR" }));
      expect(errorOf(over)).toEqual([400, "AMOUNT_OUT_OF_RANGE"]);
      expect(over.body.error.message).toContain("AED 10000000000.00 at today's rate, above the store's largest charge of AED 9,999,999,999.99");
      expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(0);
      // 2,499,999,999.99 EUR x 4 = AED 9,999,999,999.96: taken.
      const under = await m.request("/v1/store-payments", storeBody({ amount: "2499999999.99", currency: "EUR" }));
      expect(under.status, JSON.stringify(under.body)).toBe(201);
      expect(under.body.checkout.chargeAmount).toBe("9999999999.96");
    } finally {
      await updateSettings(db, { globalMaxAmount: "1000000.00" });
    }
  });
});

describe("store switches (global settings; dedicated service)", () => {
  it("503 STORE_DISABLED while the store is switched off; the same key and body succeed once it is back on", async () => {
    const m = await merchant();
    const body = storeBody();
    await updateSettings(db, { storeEnabled: false });
    try {
      const refused = await m.request("/v1/store-payments", body, "retry-key-1");
      expect(errorOf(refused)).toEqual([503, "STORE_DISABLED"]);
      expect(refused.body.error.message).toContain("same Idempotency-Key");
      // The legacy-flow refusal comes first: it is permanent, the switch is not.
      const legacy = await merchant({ amountEntryEnabled: true });
      expect(errorOf(await legacy.request("/v1/store-payments", storeBody()))).toEqual([403, "LEGACY_FLOW_DISABLED"]);
      expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(0);
    } finally {
      await updateSettings(db, { storeEnabled: true });
    }
    const retried = await m.request("/v1/store-payments", body, "retry-key-1");
    expect(retried.status).toBe(201);
  });

  it("503 STORE_UNAVAILABLE while the store is unavailable (STORE_DISABLED wins when both are off)", async () => {
    const m = await merchant();
    await updateSettings(db, { storeAvailable: false });
    try {
      expect(errorOf(await m.request("/v1/store-payments", storeBody()))).toEqual([503, "STORE_UNAVAILABLE"]);
      await updateSettings(db, { storeEnabled: false });
      expect(errorOf(await m.request("/v1/store-payments", storeBody()))).toEqual([503, "STORE_DISABLED"]);
    } finally {
      await updateSettings(db, { storeEnabled: true, storeAvailable: true });
    }
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("the intake pause has its own channel STORE: pausing it refuses store payments (503 PAYMENT_INTAKE_PAUSED) while gateway deposits go on", async () => {
    const m = await merchant();
    await updateSettings(db, { pausedChannels: ["STORE"] });
    try {
      expect(errorOf(await m.request("/v1/store-payments", storeBody()))).toEqual([503, "PAYMENT_INTAKE_PAUSED"]);
      const deposit = await m.request("/v1/payments", {
        reference: `dep-${randomUUID()}`,
        amount: "10.00",
        currency: "AED",
        method: "GATEWAY",
        direction: "DEPOSIT",
      });
      expect(deposit.status).toBe(201);
      await updateSettings(db, { pausedChannels: ["GATEWAY"] });
      expect((await m.request("/v1/store-payments", storeBody())).status).toBe(201);
    } finally {
      await updateSettings(db, { pausedChannels: [] });
    }
  });

  it("STORE_UNAVAILABLE at handoff time keeps the checkout QUEUED (no attempt counted), also when the job read the switches just before they closed; it is handed off once the store is back", async () => {
    const m = await merchant();
    const apiKey = (await authenticateRequest(`Bearer ${m.key}`, new Date(), {}, dedicated.pool)).apiKey;
    // The payment and the switch commit together. Before they do, the service's handoff job must have read the
    // switches (still on) and be waiting to claim: the table lock holds its claim until the commit, so the claim
    // itself must see the store closed (its own snapshot holds both the checkout and the switch).
    const claimWaiting = async () => {
      const { rows } = await dedicated.pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%handoff_attempts = sc.handoff_attempts + 1%'`,
      );
      return rows[0].n > 0;
    };
    const payment = await transaction(
      async (tx) => {
        await tx.$executeRaw`LOCK TABLE store_checkouts IN SHARE MODE`;
        const p = await createInProcess(tx, { apiKey, body: storeBody() as CreateStorePayment, now: new Date() });
        await updateSettings(tx, { storeAvailable: false });
        await eventually(claimWaiting, 10_000);
        return p;
      },
      { db },
    );
    try {
      // waits on purpose: several polls of the service's handoff job (200 ms), which must all leave the checkout alone
      await new Promise((r) => setTimeout(r, 1500));
      expect(await db.storeCheckout.findUniqueOrThrow({ where: { paymentId: payment.id } })).toMatchObject({
        state: "QUEUED",
        handoffAttempts: 0,
        token: null,
      });
      expect((await checkoutState(m, payment.id)).url).toBeNull();
    } finally {
      await updateSettings(db, { storeAvailable: true });
    }
    const ready = await waitFor(m, payment.id, "READY");
    expect(ready.url).toMatch(/\/store\//);
    expect((await db.storeCheckout.findUniqueOrThrow({ where: { paymentId: payment.id } })).handoffAttempts).toBe(1);
  });
});

describe("the store switches in SQL", () => {
  it("the handoff claim's condition (storeOpenSql) agrees with storeClosure for every stored form of the switches", async () => {
    const forms = [undefined, true, false] as const;
    const values: (Record<string, boolean> | null)[] = [null];
    for (const storeEnabled of forms) {
      for (const storeAvailable of forms) {
        values.push({ ...(storeEnabled === undefined ? {} : { storeEnabled }), ...(storeAvailable === undefined ? {} : { storeAvailable }) });
      }
    }
    for (const value of values) {
      const json = value === null ? null : JSON.stringify(value);
      const [row] = await db.$queryRaw<{ open: boolean }[]>`SELECT ${storeOpenSql(Prisma.sql`${json}::jsonb`)} AS open`;
      expect({ value, open: row?.open }).toEqual({ value, open: storeClosure(settingsOf(value)) === null });
    }
  });
});

describe("the store's catalog", () => {
  it("503 NO_ROUTE when the catalog has no active item", async () => {
    const m = await merchant();
    const active = await db.catalogItem.findMany({ where: { active: true }, select: { sku: true } });
    await db.catalogItem.updateMany({ where: { active: true }, data: { active: false } });
    try {
      expect(errorOf(await m.request("/v1/store-payments", storeBody()))).toEqual([503, "NO_ROUTE"]);
    } finally {
      await db.catalogItem.updateMany({ where: { sku: { in: active.map((a) => a.sku) } }, data: { active: true } });
    }
    expect((await m.request("/v1/store-payments", storeBody())).status).toBe(201);
  });

  it("a catalog the matcher cannot fully index: exact prices still READY; any other charge REJECTED at once with the reason (payment FAILED, payment.failed); whole-dirham prices are indexed in dirhams", async () => {
    const m = await merchant();
    const offer = await db.catalogItem.findMany({ where: { active: true }, select: { sku: true } });
    await db.catalogItem.updateMany({ where: { active: true }, data: { active: false } });
    const luxury = (sku: string, priceMinor: bigint) => ({ sku, name: `Luxury ${sku}`, kind: "PRODUCT" as const, priceMinor, active: true });
    try {
      // Cheapest product AED 50,000.01 at a 1-fil price step: beyond the residue table (docs/api.md "Overview" 6 still asks for an answer).
      await db.catalogItem.createMany({ data: [luxury("LUX-001", 5_000_001n), luxury("LUX-002", 5_000_003n)] });
      const reason =
        "catalog not supported for discounted baskets: the cheapest product costs AED 50000.01, above the AED 50000.00 supported for prices in steps of AED 0.01";
      expect(await storeCatalogProblem(db)).toBe(reason); // what the console's catalog page shows

      const started = Date.now();
      const needsBasket = await m.request("/v1/store-payments", storeBody({ amount: "60000.00" }));
      expect(needsBasket.status).toBe(201);
      expect(await waitFor(m, needsBasket.body.id, "REJECTED")).toMatchObject({ error: reason, url: null, subtotal: null, discount: null });
      expect(Date.now() - started).toBeLessThan(15_000); // not retried until the 30-minute expiry
      expect(await db.payment.findUniqueOrThrow({ where: { id: needsBasket.body.id } })).toMatchObject({ status: "FAILED" });
      expect((await db.storeCheckout.findUniqueOrThrow({ where: { paymentId: needsBasket.body.id } })).handoffAttempts).toBe(1);
      expect((await db.event.findMany({ where: { paymentId: needsBasket.body.id } })).map((e) => e.type)).toEqual(["payment.failed"]);
      expect((await m.request(`/v1/payments/${needsBasket.body.id}`)).body.status).toBe("FAILED");

      const exact = await m.request("/v1/store-payments", storeBody({ amount: "50000.03" }));
      expect(await waitFor(m, exact.body.id, "READY")).toMatchObject({ matchType: "EXACT_PRODUCT", subtotal: "50000.03", discount: "0.00" });

      // The same price level in whole dirhams (price step AED 1.00) is indexed in dirhams: baskets work.
      await db.catalogItem.updateMany({ where: { sku: { in: ["LUX-001", "LUX-002"] } }, data: { active: false } });
      await db.catalogItem.createMany({ data: [luxury("LUX-010", 6_000_000n), luxury("LUX-011", 6_000_100n)] });
      expect(await storeCatalogProblem(db)).toBeNull();
      const basket = await m.request("/v1/store-payments", storeBody({ amount: "100000.00" }));
      expect(await waitFor(m, basket.body.id, "READY")).toMatchObject({ matchType: "DISCOUNTED_BASKET", subtotal: "120000.00", discount: "20000.00" });

      // Rows the matcher refuses outright (plain SQL can write a zero price; the console and CSV cannot): REJECTED too.
      await db.catalogItem.create({ data: luxury("BAD-001", 0n) });
      const invalid = await m.request("/v1/store-payments", storeBody({ amount: "60000.00" }));
      expect((await waitFor(m, invalid.body.id, "REJECTED")).error).toBe(
        "store catalog is invalid: catalog item BAD-001: price must be between 1 and 999999999999 fils",
      );
      expect(await db.payment.findUniqueOrThrow({ where: { id: invalid.body.id } })).toMatchObject({ status: "FAILED" });
    } finally {
      await db.catalogItem.deleteMany({ where: { sku: { startsWith: "LUX-" } } });
      await db.catalogItem.deleteMany({ where: { sku: "BAD-001" } });
      await db.catalogItem.updateMany({ where: { sku: { in: offer.map((a) => a.sku) } }, data: { active: true } });
    }
    expect(await storeCatalogProblem(db)).toBeNull();
  });

  it("every statement that changes catalog_items bumps the catalog version (trigger), also a rolled-back one is not counted", async () => {
    const v0 = BigInt(await catalogVersion(db));
    await db.catalogItem.update({ where: { sku: "ELC-001" }, data: { name: "USB-C to USB-C Cable 1 m" } });
    expect(BigInt(await catalogVersion(db))).toBe(v0 + 1n);
    await db.$executeRawUnsafe("UPDATE catalog_items SET updated_at = now() WHERE sku IN ('ELC-001', 'ELC-002')");
    expect(BigInt(await catalogVersion(db))).toBe(v0 + 2n);
    await expect(
      db.$transaction(async (tx) => {
        await tx.catalogItem.update({ where: { sku: "ELC-001" }, data: { active: true } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(BigInt(await catalogVersion(db))).toBe(v0 + 2n);
  });

  it("the store matches the current catalog: a new item is offered at the next handoff, a deactivated one no longer (cache per catalog version)", async () => {
    const m = await merchant();
    // AED 1.00: nothing fits (cheapest product AED 4.50) -> REJECTED.
    const before = await m.request("/v1/store-payments", storeBody({ amount: "1.00" }));
    expect((await waitFor(m, before.body.id, "REJECTED")).error).toBe("no product or basket within a 20% discount");

    const saved = await upsertCatalogItem(db, { sku: "TST-100", name: "Sticker", kind: "product", price: "1" }, actor);
    expect(saved).toMatchObject({ created: true, item: { sku: "TST-100", kind: "PRODUCT", price: "1.00", priceMinor: 100n, active: true } });
    const offered = await m.request("/v1/store-payments", storeBody({ amount: "1.00" }));
    expect(await waitFor(m, offered.body.id, "READY")).toMatchObject({ matchType: "EXACT_PRODUCT", subtotal: "1.00", discount: "0.00" });
    const lines = (await db.storeCheckout.findUniqueOrThrow({ where: { paymentId: offered.body.id } })).lines as { sku: string }[];
    expect(lines.map((l) => l.sku)).toEqual(["TST-100"]);

    await deactivateCatalogItem(db, "TST-100", actor);
    const after = await m.request("/v1/store-payments", storeBody({ amount: "1.00" }));
    await waitFor(m, after.body.id, "REJECTED");
  });

  it("upsert validates like the CSV import, updates and reactivates; deactivate and activate are audited; unknown sku is 404", async () => {
    await expect(upsertCatalogItem(db, { sku: "bad sku", name: "x", kind: "PRODUCT", price: "1.00" }, actor)).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("invalid sku"),
    });
    await expect(upsertCatalogItem(db, { sku: "TST-200", name: " ", kind: "PRODUCT", price: "1.00" }, actor)).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      message: "name is empty",
    });
    await expect(upsertCatalogItem(db, { sku: "TST-200", name: "Mug", kind: "BUNDLE", price: "1.00" }, actor)).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    for (const price of ["0", "1.234", "-1", "12,50", "99999999999"]) {
      await expect(upsertCatalogItem(db, { sku: "TST-200", name: "Mug", kind: "PRODUCT", price }, actor), price).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
      });
    }
    expect(await db.catalogItem.findUnique({ where: { sku: "TST-200" } })).toBeNull();

    expect((await upsertCatalogItem(db, { sku: "TST-200", name: "Mug", kind: "PRODUCT", price: "24.50" }, actor)).created).toBe(true);
    await deactivateCatalogItem(db, "TST-200", actor);
    const updated = await upsertCatalogItem(db, { sku: "TST-200", name: "Mug, large", kind: "PRODUCT", price: "26.00" }, actor);
    expect(updated).toMatchObject({ created: false, item: { name: "Mug, large", priceMinor: 2600n, active: true } });
    expect(await setCatalogItemActive(db, "TST-200", true, actor)).toMatchObject({ active: true });
    await expect(deactivateCatalogItem(db, "NOPE-1", actor)).rejects.toMatchObject({ code: "NOT_FOUND" });

    const audit = await db.auditLog.findMany({ where: { entity: "catalog_item", entityId: "TST-200" }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["catalog.create", "catalog.deactivate", "catalog.update"]);
    expect(audit[2]).toMatchObject({
      actorName: "test operator",
      before: { price: "24.50", active: false },
      after: { name: "Mug, large", price: "26.00", active: true },
    });
  });

  it("list: paging, search by sku or name, active filter", async () => {
    const all = await listCatalogItems(db, { limit: 500 });
    expect(all.total).toBeGreaterThanOrEqual(250);
    expect(all.items.map((i) => i.sku)).toEqual([...all.items.map((i) => i.sku)].sort());
    const page2 = await listCatalogItems(db, { page: 2, limit: 10 });
    expect(page2).toMatchObject({ page: 2, limit: 10, pages: Math.ceil(all.total / 10) });
    expect(page2.items.map((i) => i.sku)).toEqual(all.items.slice(10, 20).map((i) => i.sku));
    const found = await listCatalogItems(db, { search: "power bank" });
    expect(found.items.map((i) => i.sku).sort()).toEqual(["ELC-006", "ELC-007", "PKG-002"]); // "Travel Tech Bundle (power bank, ...)"
    expect(found.items[0]).toMatchObject({ price: "89.95", priceMinor: 8995n, kind: "PRODUCT" });
    expect((await listCatalogItems(db, { search: "tst-100" })).items).toEqual([expect.objectContaining({ sku: "TST-100", active: false })]);
    expect((await listCatalogItems(db, { active: false })).items.every((i) => !i.active)).toBe(true);
    await expect(listCatalogItems(db, { limit: 0 })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(listCatalogItems(db, { page: 0 })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  });

  it("CSV import is all or nothing with per-line errors; then creates, updates, leaves unchanged and (optionally) deactivates the rest; export round-trips", async () => {
    const versionBefore = await catalogVersion(db);
    const broken = [
      "sku,name,kind,price",
      "TST-300,Tote bag,PRODUCT,15.00",
      "TST-301,,PRODUCT,3.00",
      "TST-302,Pin,GADGET,2.00",
      "TST-303,Badge,PRODUCT,2.005",
      "TST-300,Tote bag again,PRODUCT,16.00",
    ].join("\n");
    const refused = await importCatalogCsv(db, broken, actor);
    expect(refused).toEqual({
      ok: false,
      errors: [
        { line: 3, message: "name is empty" },
        { line: 4, message: 'invalid kind "GADGET": PRODUCT or PACKAGE' },
        { line: 5, message: 'invalid price "2.005": AED with at most 2 decimals, e.g. 12.50' },
        { line: 6, message: "duplicate sku TST-300" },
      ],
    });
    expect(await db.catalogItem.findUnique({ where: { sku: "TST-300" } })).toBeNull();
    expect(await catalogVersion(db)).toBe(versionBefore);
    expect(await importCatalogCsv(db, "sku,name,kind,price\n", actor)).toEqual({ ok: false, errors: [{ line: 1, message: "the file has no items" }] });

    const good = ["sku,name,kind,price", "TST-300,Tote bag,PRODUCT,15.00", 'TST-200,"Mug, large",PRODUCT,26.00', "TST-100,Sticker,PRODUCT,1.50"].join("\r\n");
    expect(await importCatalogCsv(db, good, actor)).toEqual({ ok: true, created: 1, updated: 1, unchanged: 1, deactivated: 0 });
    expect(await db.catalogItem.findUniqueOrThrow({ where: { sku: "TST-100" } })).toMatchObject({ priceMinor: 150n, active: true });
    expect((await db.auditLog.findFirstOrThrow({ where: { action: "catalog.import" }, orderBy: { createdAt: "desc" } })).after).toMatchObject({
      items: 3,
      created: 1,
      updated: 1,
      unchanged: 1,
    });

    const exported = await exportCatalogCsv(db);
    expect(exported.split("\n")[0]).toBe("sku,name,kind,price");
    expect(exported).toContain('TST-200,"Mug, large",PRODUCT,26.00');
    expect(await importCatalogCsv(db, exported, actor)).toMatchObject({ ok: true, created: 0, updated: 0, deactivated: 0 });

    // A full replacement: every active item not in the file is deactivated.
    const activeBefore = await db.catalogItem.count({ where: { active: true } });
    const replaced = await importCatalogCsv(
      db,
      ["sku,name,kind,price", "TST-300,Tote bag,PRODUCT,15.00", "ELC-001,USB-C to USB-C Cable 1 m,PRODUCT,19.95"].join("\n"),
      actor,
      { deactivateMissing: true },
    );
    expect(replaced).toEqual({ ok: true, created: 0, updated: 0, unchanged: 2, deactivated: activeBefore - 2 });
    expect(await db.catalogItem.count({ where: { active: true } })).toBe(2);
    // Restore the full offer for any later test.
    expect(await importCatalogCsv(db, exported, actor)).toMatchObject({ ok: true, updated: activeBefore - 2 });
  });
});
