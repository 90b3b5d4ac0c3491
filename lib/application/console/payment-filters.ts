import { z } from "zod";
import { ListPaymentsQuery } from "@/lib/contract/schemas/api/payments";

/** Console payment filters: the query of `GET /v1/payments` plus, for operators, a merchant. */
export const ConsolePaymentsQuery = z.object({
  query: ListPaymentsQuery,
  merchant: z.uuid({ message: "merchant: must be a merchant id" }).optional(),
});

/**
 * Parses console list filters from URL search parameters (the same names and rules as `GET /v1/payments`:
 * page, limit, status, method, direction, currency, search, from, to; plus `merchant` for operators).
 * Empty values count as absent. Returns the parsed query, or the first error message.
 */
export function parsePaymentFilters(
  params: Record<string, string | string[] | undefined>,
): { ok: true; query: ListPaymentsQuery; merchant?: string } | { ok: false; error: string } {
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && value !== "") flat[k] = value;
  }
  const { merchant, ...rest } = flat;
  const parsed = ConsolePaymentsQuery.safeParse({ query: rest, merchant });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.filter((p) => p !== "query").join(".");
    return { ok: false, error: `${path ? `${path}: ` : ""}${issue?.message ?? "not a valid filter"}` };
  }
  return { ok: true, query: parsed.data.query, merchant: parsed.data.merchant };
}
