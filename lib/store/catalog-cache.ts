// The sandbox store's prepared catalog index, cached per catalog version.
import type { Db } from "@/lib/db";
import { prepareCatalog, type PreparedCatalog } from "@/lib/store/matching";

/** Settings row holding the catalog version; a statement trigger on catalog_items bumps it (prisma/sql/guards.sql). */
export const CATALOG_VERSION_SETTING = "catalog-version";

type Cached = { version: string; index: PreparedCatalog };
const g = globalThis as unknown as { __sandpiperCatalog?: Cached };

/**
 * The current catalog version: a counter that every INSERT, UPDATE, DELETE or TRUNCATE statement on
 * catalog_items increments in the same transaction (trigger `catalog_items_version`), so any writer
 * (console functions, CSV import, seed, plain SQL) invalidates the cache. "0" before the first change.
 */
export async function catalogVersion(db: Db): Promise<string> {
  const row = await db.setting.findUnique({ where: { key: CATALOG_VERSION_SETTING } });
  return row ? String(row.value) : "0";
}

/**
 * The prepared matching index of the store's active catalog items (lib/store/matching.ts
 * `prepareCatalog`), built once per catalog version and kept in this process. The version is read before
 * the items: a change committed in between is at worst cached under the older version and rebuilt on the
 * next call, never the reverse.
 * @returns `{ version, index }`
 */
export async function preparedStoreCatalog(db: Db): Promise<Cached> {
  const version = await catalogVersion(db);
  const cached = g.__sandpiperCatalog;
  if (cached && cached.version === version) return cached;
  const rows = await db.catalogItem.findMany({ where: { active: true }, select: { sku: true, name: true, kind: true, priceMinor: true }, orderBy: { sku: "asc" } });
  const fresh = { version, index: prepareCatalog(rows) };
  g.__sandpiperCatalog = fresh;
  return fresh;
}
