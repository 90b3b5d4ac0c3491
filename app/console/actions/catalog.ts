"use server";

import { consoleAction } from "@/lib/application/console/action";
import {
  CatalogActiveInput,
  CatalogImportInput,
  CatalogItemInput,
  importCatalog,
  saveCatalogItem,
  switchCatalogItem,
} from "@/lib/simulators/test-store/catalog-changes";
import { apiError } from "@/lib/contract/errors";

/** Creates or updates a store catalog item (operator only; audited). */
export const saveItem = consoleAction(CatalogItemInput, async ({ actor, tx, input }) => {
  const { item, created } = await saveCatalogItem(tx, actor, input);
  return { message: `${created ? "Added" : "Updated"} ${item.sku} (${item.name}) at AED ${item.price}. The store matches new checkouts against it at once.` };
});

/** Activates or deactivates a store catalog item (operator only; audited). */
export const switchItem = consoleAction(CatalogActiveInput, async ({ actor, tx, input }) => {
  const item = await switchCatalogItem(tx, actor, input);
  return { message: `${item.sku} is now ${item.active ? "active" : "inactive"}.` };
});

/** Imports catalog CSV all or nothing (operator only; audited). */
export const importItems = consoleAction(CatalogImportInput, async ({ actor, tx, input }) => {
  const result = await importCatalog(tx, actor, input);
  if (!result.ok) {
    const lines = result.errors
      .slice(0, 10)
      .map((e) => `line ${e.line}: ${e.message}`)
      .join("; ");
    throw apiError("VALIDATION_ERROR", `Nothing was imported. ${lines}${result.errors.length > 10 ? ` (and ${result.errors.length - 10} more)` : ""}`);
  }
  return { message: `Imported: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ${result.deactivated} deactivated.` };
});
