import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { actorOf, inTx, newOperator, refusal } from "../support/console";
import { db, newMerchant } from "../support/fixtures";
import { importCatalog, saveCatalogItem, switchCatalogItem } from "@/lib/simulators/test-store/catalog-changes";
import { present } from "../../scripts/harness/present";

// Items are created inactive-at-the-end with prices no store test uses, so parallel store tests are unaffected.
describe("console: store catalog (operator-editable, CSV import)", () => {
  it("an operator adds, updates and deactivates items; every change is audited; a merchant user is refused", async () => {
    const operator = await newOperator();
    const sku = `T-${randomUUID().slice(0, 8)}`;
    const created = await inTx((tx) => saveCatalogItem(tx, operator, { sku, name: "Test lamp", kind: "PRODUCT", price: "987654.31" }));
    expect(created).toMatchObject({ created: true, item: { sku, price: "987654.31", active: true } });
    const updated = await inTx((tx) => saveCatalogItem(tx, operator, { sku, name: "Test lamp XL", kind: "PRODUCT", price: "987654.37" }));
    expect(updated.item).toMatchObject({ name: "Test lamp XL", price: "987654.37" });
    expect((await db.catalogItem.findUniqueOrThrow({ where: { sku } })).priceMinor).toBe(98765437n);
    const off = await inTx((tx) => switchCatalogItem(tx, operator, { sku, active: "false" }));
    expect(off.active).toBe(false);
    const audit = await db.auditLog.findMany({ where: { entity: "catalog_item", entityId: sku }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.actorName)).toEqual([operator.username, operator.username, operator.username]);
    expect(present(audit?.[1], "audit?.[1]").before).toMatchObject({ price: "987654.31" });
    expect(present(audit?.[1], "audit?.[1]").after).toMatchObject({ price: "987654.37" });

    const bad = await refusal(inTx((tx) => saveCatalogItem(tx, operator, { sku: `${sku}-2`, name: "Bad", kind: "PRODUCT", price: "12.345" })));
    expect(bad.code).toBe("VALIDATION_ERROR");
    expect(await db.catalogItem.count({ where: { sku: `${sku}-2` } })).toBe(0);

    const m = await newMerchant();
    const merchantUser = actorOf({ ...m.owner, role: "MERCHANT", merchantId: m.merchant.id });
    const refused = await refusal(inTx((tx) => saveCatalogItem(tx, merchantUser, { sku: `${sku}-3`, name: "X", kind: "PRODUCT", price: "1.00" })));
    expect(refused.code).toBe("FORBIDDEN");
    expect(await db.catalogItem.count({ where: { sku: `${sku}-3` } })).toBe(0);
  });

  it("CSV import is all or nothing with per-line errors", async () => {
    const operator = await newOperator();
    const sku = `C-${randomUUID().slice(0, 8)}`;
    const broken = await inTx((tx) =>
      importCatalog(tx, operator, { csv: `sku,name,kind,price\n${sku}-a,Desk,PRODUCT,987001.11\n${sku}-b,Chair,PRODUCT,abc\n` }),
    );
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.errors.map((e) => e.line)).toEqual([3]);
    expect(await db.catalogItem.count({ where: { sku: { startsWith: sku } } })).toBe(0);
    const good = await inTx((tx) =>
      importCatalog(tx, operator, { csv: `sku,name,kind,price\n${sku}-a,Desk,PRODUCT,987001.11\n"${sku}-b","Chair, oak",PACKAGE,987001.13\n` }),
    );
    expect(good).toEqual({ ok: true, created: 2, updated: 0, unchanged: 0, deactivated: 0 });
    expect((await db.catalogItem.findUniqueOrThrow({ where: { sku: `${sku}-b` } })).name).toBe("Chair, oak");
    for (const s of [`${sku}-a`, `${sku}-b`]) await inTx((tx) => switchCatalogItem(tx, operator, { sku: s, active: "false" }));
  });
});
