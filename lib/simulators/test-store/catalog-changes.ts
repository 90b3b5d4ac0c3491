import { z } from "zod";
import { assertOperator, auditActor, type ConsoleActor } from "@/lib/domain/auth/actor";
import type { Tx } from "@/lib/platform/db";
import { importCatalogCsv, setCatalogItemActive, upsertCatalogItem } from "@/lib/simulators/test-store/catalog-admin";

// Changes to the store catalog by an operator (add or update an item, switch it on or off, CSV import): the form
// schemas and the operator check; lib/simulators/test-store/catalog-admin.ts validates, saves and audits.

export const CatalogItemInput = z.object({
  sku: z.string().trim().min(1, "required").max(64),
  name: z.string().trim().min(1, "required").max(200),
  kind: z.enum(["PRODUCT", "PACKAGE"], { message: "PRODUCT or PACKAGE" }),
  price: z.string().trim().min(1, "required"),
});

export const CatalogActiveInput = z.object({ sku: z.string().min(1), active: z.enum(["true", "false"]) });

export const CatalogImportInput = z.object({
  csv: z
    .string()
    .min(1, "paste the CSV text (header sku,name,kind,price)")
    .max(20_000, "at most 20,000 characters (about 450 items): import a larger catalog in parts"),
  deactivateMissing: z.literal("on").optional(),
});

/**
 * Creates or updates a catalog item (AED price text such as "12.50"), operator only.
 * @throws ApiError 403 FORBIDDEN for a MERCHANT user, 400 VALIDATION_ERROR naming a bad field
 */
export function saveCatalogItem(tx: Tx, actor: ConsoleActor, input: z.output<typeof CatalogItemInput>) {
  assertOperator(actor);
  return upsertCatalogItem(tx, input, auditActor(actor));
}

/** Activates or deactivates a catalog item, operator only. @throws ApiError 403 FORBIDDEN, 404 NOT_FOUND */
export function switchCatalogItem(tx: Tx, actor: ConsoleActor, input: z.output<typeof CatalogActiveInput>) {
  assertOperator(actor);
  return setCatalogItemActive(tx, input.sku, input.active === "true", auditActor(actor));
}

/**
 * Imports catalog CSV all or nothing, operator only; returns the counts or the per-line errors.
 * @throws ApiError 403 FORBIDDEN
 */
export function importCatalog(tx: Tx, actor: ConsoleActor, input: z.output<typeof CatalogImportInput>) {
  assertOperator(actor);
  return importCatalogCsv(tx, input.csv, auditActor(actor), { deactivateMissing: input.deactivateMissing === "on" });
}
