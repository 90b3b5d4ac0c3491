// The sandbox store's prepared catalog index, cached per catalog version.
import type { Db } from "@/lib/platform/db";
import { prepareCatalog, type PreparedCatalog } from "@/lib/simulators/test-store/matching";
import { processState } from "@/lib/platform/process-state";

/** Settings row holding the catalog version; a statement trigger on catalog_items bumps it (prisma/migrations/20261124055000_database_guards/migration.sql). */
export const CATALOG_VERSION_SETTING = "catalog-version";

/**
 * The store's catalog as the matcher sees it, for one catalog version:
 * - `index`: the prepared index (lib/simulators/test-store/matching.ts `prepareCatalog`). It may serve exact matches only:
 *   `index.stats.unsupported` then says why discounted baskets cannot be computed.
 * - `problem`: set instead of `index` when the active rows themselves are invalid for matching (a price
 *   outside 1..999,999,999,999 fils written by plain SQL: the console and CSV import refuse those). It is
 *   deterministic for the version, so the store rejects checkouts with it rather than fail on every retry.
 */
export type StoreCatalog = { version: string } & ({ index: PreparedCatalog; problem: null } | { index: null; problem: string });

declare module "@/lib/platform/process-state" {
  interface OwnedSlotTypes {
    /** The store catalog as {@link StoreCatalog} holds it. */
    catalog: StoreCatalog;
  }
}

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
 * The prepared matching index of the store's active catalog items (lib/simulators/test-store/matching.ts
 * `prepareCatalog`), built once per catalog version and kept in this process. The version is read before
 * the items: a change committed in between is at worst cached under the older version and rebuilt on the
 * next call, never the reverse.
 * @returns `StoreCatalog`: `{ version, index, problem: null }`, or `{ version, index: null, problem }` when
 *   `prepareCatalog` refuses the rows (its TypeError or RangeError message). Database errors are thrown.
 */
export async function preparedStoreCatalog(db: Db): Promise<StoreCatalog> {
  const version = await catalogVersion(db);
  const cached = processState().catalog;
  if (cached && cached.version === version) return cached;
  const rows = await db.catalogItem.findMany({
    where: { active: true },
    select: { sku: true, name: true, kind: true, priceMinor: true },
    orderBy: { sku: "asc" },
  });
  let fresh: StoreCatalog;
  try {
    fresh = { version, index: prepareCatalog(rows), problem: null };
  } catch (error) {
    if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
    fresh = { version, index: null, problem: `store catalog is invalid: ${error.message}` };
  }
  processState().catalog = fresh;
  return fresh;
}

/**
 * Why the store cannot offer discounted baskets for its current catalog (for the console), or null when it
 * can: the catalog's rows are invalid, or the matching index cannot hold it (exact matches still work).
 * Builds and caches the index like `preparedStoreCatalog`.
 */
export async function storeCatalogProblem(db: Db): Promise<string | null> {
  const catalog = await preparedStoreCatalog(db);
  return catalog.problem ?? catalog.index.stats.unsupported;
}
