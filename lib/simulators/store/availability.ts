import { apiError, type ApiError } from "@/lib/contract/errors";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import { DEFAULT_SETTINGS, SETTINGS_COLUMN, type ServiceSettings } from "@/lib/domain/settings/service-settings";

/**
 * Why the connected store cannot take work now, from the operator's switches (docs/api.md "Errors": 503
 * STORE_DISABLED, STORE_UNAVAILABLE), or null when it can. STORE_DISABLED (switched off) wins over
 * STORE_UNAVAILABLE (temporarily unreachable).
 */
export function storeClosure(settings: Pick<ServiceSettings, "storeEnabled" | "storeAvailable">): ApiError | null {
  if (!settings.storeEnabled) {
    return apiError("STORE_DISABLED", "the store checkout is switched off right now; retry later with the same Idempotency-Key and body");
  }
  if (!settings.storeAvailable) {
    return apiError("STORE_UNAVAILABLE", "the store is temporarily unavailable; retry later with the same Idempotency-Key and body");
  }
  return null;
}

/**
 * {@link storeClosure}'s rule as a SQL condition on a settings JSON (jsonb, null when nothing is stored): true
 * while the store can take work (both switches on; a member not stored has its default). For a statement that
 * must read the switches and the rows they govern in one snapshot: the handoff claim, which would otherwise hand
 * off a checkout committed together with the switch that closes the store. A test holds the two rules equal.
 * @param settings a SQL expression of the stored settings value (default: the stored service settings)
 */
export function storeOpenSql(settings: Prisma.Sql = SETTINGS_COLUMN): Prisma.Sql {
  const on = (member: "storeEnabled" | "storeAvailable") => Prisma.sql`COALESCE((${settings} ->> ${member})::boolean, ${DEFAULT_SETTINGS[member]})`;
  return Prisma.sql`(${on("storeEnabled")} AND ${on("storeAvailable")})`;
}
