// Catalog administration for the console (operator role: "store"): list, upsert, deactivate, CSV import
// and export of the connected store's catalog (docs/api.md "Overview" 6: real catalog products and
// packages with AED prices). Every change writes an audit_log row in the same transaction; the catalog
// version trigger (prisma/migrations/20261124055000_database_guards/migration.sql) makes the store rebuild its matching index on the next handoff.
import { writeAudit, type AuditActor } from "@/lib/domain/audit";
import { withTransaction, type Db, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import type { Prisma } from "@/lib/platform/generated/prisma/client";
import { fromMinor } from "@/lib/contract/money/currency";
import { checkCatalogFields, parseCatalogCsv, toCatalogCsv, type CatalogCsvError } from "@/lib/simulators/test-store/catalog-csv";
import type { CatalogItem } from "@/lib/simulators/test-store/matching";
import { pageOf } from "@/lib/contract/pagination";

/** A catalog item as the console shows it: price as AED decimal text and in fils. */
export type CatalogEntry = { sku: string; name: string; kind: "PRODUCT" | "PACKAGE"; price: string; priceMinor: bigint; active: boolean; updatedAt: Date };

type Row = { sku: string; name: string; kind: "PRODUCT" | "PACKAGE"; priceMinor: bigint; active: boolean; updatedAt: Date };

const entry = (r: Row): CatalogEntry => ({
  sku: r.sku,
  name: r.name,
  kind: r.kind,
  price: fromMinor(r.priceMinor),
  priceMinor: r.priceMinor,
  active: r.active,
  updatedAt: r.updatedAt,
});
const audited = (r: Pick<Row, "sku" | "name" | "kind" | "priceMinor" | "active">) => ({
  sku: r.sku,
  name: r.name,
  kind: r.kind,
  price: fromMinor(r.priceMinor),
  active: r.active,
});

/** One audit row of a catalog change, through the one audit writer (lib/domain/audit.ts). */
function audit(tx: Tx, actor: AuditActor, action: string, entityId: string | null, before: unknown, after: unknown, reason?: string) {
  return writeAudit(tx, actor, { action, entity: "catalog_item", entityId, before, after, reason });
}

/**
 * A page of the catalog, ordered by sku. `search` matches sku or name (case-insensitive, substring);
 * `active` filters by state (omitted: both). `page` >= 1, `limit` 1..500 (default 50).
 * @returns `{ items, total, page, limit, pages }`
 * @throws ApiError 400 VALIDATION_ERROR for page or limit out of range
 */
export async function listCatalogItems(db: Db, query: { page?: number; limit?: number; search?: string; active?: boolean } = {}) {
  const page = query.page ?? 1;
  const limit = query.limit ?? 50;
  if (!Number.isInteger(page) || page < 1) throw apiError("VALIDATION_ERROR", "page: must be an integer >= 1");
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw apiError("VALIDATION_ERROR", "limit: must be an integer from 1 to 500");
  const search = query.search?.trim();
  const where: Prisma.CatalogItemWhereInput = {
    ...(query.active === undefined ? {} : { active: query.active }),
    ...(search ? { OR: [{ sku: { contains: search, mode: "insensitive" } }, { name: { contains: search, mode: "insensitive" } }] } : {}),
  };
  const [total, rows] = await Promise.all([
    db.catalogItem.count({ where }),
    db.catalogItem.findMany({ where, orderBy: { sku: "asc" }, skip: (page - 1) * limit, take: limit }),
  ]);
  return pageOf(rows.map(entry), total, { page, limit });
}

/**
 * Creates an item or replaces the name, kind and price of the item with that sku, and makes it active.
 * Input fields as text, validated like a CSV record (lib/simulators/test-store/catalog-csv.ts `checkCatalogFields`: price
 * is AED text such as "12.50"). Audited as `catalog.create` or `catalog.update` with before and after.
 * @returns the saved entry and whether it was created
 * @throws ApiError 400 VALIDATION_ERROR naming the problem (nothing is changed)
 */
export async function upsertCatalogItem(
  db: Db,
  input: { sku: string; name: string; kind: string; price: string },
  actor: AuditActor,
): Promise<{ item: CatalogEntry; created: boolean }> {
  const item = checkCatalogFields(input);
  if (typeof item === "string") throw apiError("VALIDATION_ERROR", item);
  return withTransaction(db, async (tx) => {
    const before = await tx.catalogItem.findUnique({ where: { sku: item.sku } });
    const saved = await tx.catalogItem.upsert({
      where: { sku: item.sku },
      create: { sku: item.sku, name: item.name, kind: item.kind, priceMinor: item.priceMinor, active: true },
      update: { name: item.name, kind: item.kind, priceMinor: item.priceMinor, active: true },
    });
    await audit(tx, actor, before ? "catalog.update" : "catalog.create", saved.sku, before && audited(before), audited(saved));
    return { item: entry(saved), created: !before };
  });
}

/**
 * Deactivates (`active` false) or reactivates an item. An inactive item is never matched; baskets already
 * offered keep their lines. Setting the state an item already has changes nothing and writes no audit row.
 * @throws ApiError 404 NOT_FOUND for an unknown sku
 */
export async function setCatalogItemActive(db: Db, sku: string, active: boolean, actor: AuditActor): Promise<CatalogEntry> {
  return withTransaction(db, async (tx) => {
    const before = await tx.catalogItem.findUnique({ where: { sku } });
    if (!before) throw apiError("NOT_FOUND", `catalog item ${sku} not found`);
    if (before.active === active) return entry(before);
    const saved = await tx.catalogItem.update({ where: { sku }, data: { active } });
    await audit(tx, actor, active ? "catalog.activate" : "catalog.deactivate", sku, audited(before), audited(saved));
    return entry(saved);
  });
}

/** Deactivates an item (see setCatalogItemActive). @throws ApiError 404 NOT_FOUND for an unknown sku */
export function deactivateCatalogItem(db: Db, sku: string, actor: AuditActor): Promise<CatalogEntry> {
  return setCatalogItemActive(db, sku, false, actor);
}

export type CatalogImportResult =
  { ok: true; created: number; updated: number; unchanged: number; deactivated: number } | { ok: false; errors: CatalogCsvError[] };

/**
 * Imports catalog CSV (format: lib/simulators/test-store/catalog-csv.ts, header `sku,name,kind,price`, AED prices) in one
 * transaction, all or nothing: when any line has an error, nothing is changed and every error is
 * returned with its line number. Otherwise each record creates its sku or updates name, kind and price
 * (and reactivates it); with `deactivateMissing` every active item whose sku is not in the file is
 * deactivated (a full replacement of the offer). One audit row `catalog.import` with the counts.
 * @returns counts, or `{ ok: false, errors }`; never throws for bad input
 */
export async function importCatalogCsv(db: Db, text: string, actor: AuditActor, opts: { deactivateMissing?: boolean } = {}): Promise<CatalogImportResult> {
  const { items, errors } = parseCatalogCsv(text);
  if (errors.length > 0) return { ok: false, errors };
  if (items.length === 0) return { ok: false, errors: [{ line: 1, message: "the file has no items" }] };
  return withTransaction(db, async (tx) => {
    const existing = new Map((await tx.catalogItem.findMany({ where: { sku: { in: items.map((i) => i.sku) } } })).map((r) => [r.sku, r]));
    const counts = { created: 0, updated: 0, unchanged: 0, deactivated: 0 };
    const fresh: CatalogItem[] = [];
    for (const item of items) {
      const before = existing.get(item.sku);
      if (!before) {
        fresh.push(item);
        continue;
      }
      if (before.name === item.name && before.kind === item.kind && before.priceMinor === item.priceMinor && before.active) {
        counts.unchanged++;
        continue;
      }
      await tx.catalogItem.update({ where: { sku: item.sku }, data: { name: item.name, kind: item.kind, priceMinor: item.priceMinor, active: true } });
      counts.updated++;
    }
    if (fresh.length > 0) {
      counts.created = (
        await tx.catalogItem.createMany({ data: fresh.map((i) => ({ sku: i.sku, name: i.name, kind: i.kind, priceMinor: i.priceMinor, active: true })) })
      ).count;
    }
    if (opts.deactivateMissing) {
      counts.deactivated = (
        await tx.catalogItem.updateMany({ where: { active: true, sku: { notIn: items.map((i) => i.sku) } }, data: { active: false } })
      ).count;
    }
    await audit(tx, actor, "catalog.import", null, null, { items: items.length, ...counts, deactivateMissing: Boolean(opts.deactivateMissing) });
    return { ok: true as const, ...counts };
  });
}

/**
 * The catalog as CSV (lib/simulators/test-store/catalog-csv.ts `toCatalogCsv`), ordered by sku; active items only unless
 * `includeInactive`. Importing the result changes nothing.
 */
export async function exportCatalogCsv(db: Db, opts: { includeInactive?: boolean } = {}): Promise<string> {
  const rows = await db.catalogItem.findMany({ where: opts.includeInactive ? {} : { active: true }, orderBy: { sku: "asc" } });
  return toCatalogCsv(rows.map((r) => ({ sku: r.sku, name: r.name, kind: r.kind, priceMinor: r.priceMinor })));
}
