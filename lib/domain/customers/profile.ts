import { apiError } from "@/lib/contract/errors";
import type { Customer } from "@/lib/contract/schemas/api/common";

const isBlank = (value: string | undefined) => value === undefined || value.trim() === "";

/**
 * docs/api.md "Customer" rules: required customer members are never filled in; a missing or blank ("" or white
 * space) one rejects the request, naming every missing member ("customer.phone, customer.email"). Blank optional
 * members are left out of what is stored.
 * @returns the customer without blank members (undefined when none was sent, which a required member refuses: with at
 *   least one required member the answer is a customer)
 * @throws ApiError 400 CUSTOMER_PROFILE_REQUIRED
 */
export function customerProfile(customer: Customer | undefined, required: readonly [keyof Customer, ...(keyof Customer)[]]): Customer;
export function customerProfile(customer: Customer | undefined, required: readonly (keyof Customer)[]): Customer | undefined;
export function customerProfile(customer: Customer | undefined, required: readonly (keyof Customer)[]): Customer | undefined {
  const missing = required.filter((member) => isBlank(customer?.[member]));
  if (missing.length > 0) {
    throw apiError("CUSTOMER_PROFILE_REQUIRED", `customer profile incomplete: ${missing.map((m) => `customer.${m}`).join(", ")} required`);
  }
  if (!customer) return undefined;
  return Object.fromEntries(Object.entries(customer).filter(([, v]) => !isBlank(v))) as Customer;
}
