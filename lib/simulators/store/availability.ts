import { apiError, type ApiError } from "@/lib/contract/errors";
import type { ServiceSettings } from "@/lib/domain/settings/service-settings";

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
