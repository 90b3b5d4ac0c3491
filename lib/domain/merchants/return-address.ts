// A merchant's default return address (docs/api.md "Returning to your site"), set in the console on the Callbacks page.
import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import type { Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { optionalText, uuidField } from "@/lib/contract/schemas/forms/fields";
import { assertMerchantAccess, type ConsoleActor } from "@/lib/domain/auth/actor";
import { MAX_RETURN_URL_LENGTH, returnUrlOrThrow } from "@/lib/domain/addresses/return-url";
import { auditMerchant } from "@/lib/domain/merchants/manage-merchants";

/** The console form: the merchant and the address; an empty address removes the default. */
export const ReturnUrlInput = z.object({ merchantId: uuidField, url: optionalText(MAX_RETURN_URL_LENGTH) });

/**
 * Sets or removes a merchant's default return address: where "Return to <merchant>" on the customer pages leads when
 * the store payment or checkout session gave none (docs/api.md "Returning to your site"). Checked as a request's
 * returnUrl is (lib/domain/addresses/return-url.ts: https; an address on this machine only in local mode). MERCHANT users
 * for their own merchant, operators for any; one audit row with the address before and after.
 * @param input.url the address, or undefined to remove the default.
 * @returns the address as stored, or null when removed.
 * @throws ApiError 400 VALIDATION_ERROR "returnUrl: <reason>" (nothing changed), 404 NOT_FOUND (unknown merchant, or
 *   another merchant's for a MERCHANT user)
 */
export async function setDefaultReturnUrl(tx: Tx, actor: ConsoleActor, input: z.output<typeof ReturnUrlInput>, now = systemNow()): Promise<string | null> {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  const returnUrl = returnUrlOrThrow("returnUrl", input.url);
  const before = await tx.merchant.findUnique({ where: { id: input.merchantId }, select: { returnUrl: true } });
  if (!before) throw apiError("NOT_FOUND", "merchant not found");
  await tx.merchant.update({ where: { id: input.merchantId }, data: { returnUrl } });
  await auditMerchant(tx, actor, input.merchantId, { action: "merchant.return_url", before: { returnUrl: before.returnUrl }, after: { returnUrl } }, now);
  return returnUrl;
}
