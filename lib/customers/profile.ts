import { apiError } from "@/lib/errors";
import type { Customer } from "@/lib/schemas/common";

/**
 * SPEC "Customer object" rules: required customer members are never auto-filled; a missing or blank one
 * rejects the request, naming every missing member ("customer.phone, customer.email").
 * @throws ApiError 400 CUSTOMER_PROFILE_REQUIRED
 */
export function assertCustomerProfile(customer: Customer | undefined, required: readonly (keyof Customer)[]): void {
  const missing = required.filter((member) => !customer?.[member]?.trim());
  if (missing.length > 0) {
    throw apiError("CUSTOMER_PROFILE_REQUIRED", `customer profile incomplete: ${missing.map((m) => `customer.${m}`).join(", ")} required`);
  }
}
