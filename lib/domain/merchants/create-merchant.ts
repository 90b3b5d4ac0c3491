import type { Db } from "@/lib/platform/db";
import { CURRENCIES } from "@/lib/contract/money/currency";
import { normalizeIp } from "@/lib/domain/auth/ip";

export type NewMerchant = {
  name: string;
  status?: "ACTIVE" | "INACTIVE";
  enabledCurrencies?: string[];
  defaultCommissionBps?: number;
  callbackUrl?: string | null;
  callbackSecret?: string | null;
  allowedIps?: string[];
  amountEntryEnabled?: boolean;
  /** Fast callback retries (docs/callbacks.md "Fast retries"); default off. */
  fastRetries?: boolean;
  requiredCustomerFields?: string[];
  storeRequiresCountry?: boolean;
  minutes?: Partial<Record<"bankTransferDeposit" | "gatewayDeposit" | "withdrawalApproval" | "storeCheckout" | "checkoutSession", number>>;
};

/**
 * A new merchant's columns (Prisma's field names) with every default applied, and its server IP allow-list
 * normalised and without repeats: the one recipe of {@link createMerchant} and of the sandbox's one-statement make
 * (lib/simulators/sandbox-merchants).
 * @throws Error "not an exact IP address: <ip>" for an allow-list entry that is not one
 */
export function newMerchantValues(input: NewMerchant) {
  const addresses = (input.allowedIps ?? []).map((ip) => {
    const normalized = normalizeIp(ip);
    if (!normalized) throw new Error(`not an exact IP address: ${ip}`);
    return normalized;
  });
  const m = input.minutes ?? {};
  return {
    addresses: [...new Set(addresses)],
    values: {
      name: input.name,
      status: input.status ?? "ACTIVE",
      enabledCurrencies: input.enabledCurrencies ?? [...CURRENCIES],
      defaultCommissionBps: input.defaultCommissionBps ?? 0,
      callbackUrl: input.callbackUrl ?? null,
      callbackSecret: input.callbackSecret ?? null,
      amountEntryEnabled: input.amountEntryEnabled ?? false,
      fastRetries: input.fastRetries ?? false,
      requiredCustomerFields: input.requiredCustomerFields ?? [],
      storeRequiresCountry: input.storeRequiresCountry ?? false,
      bankTransferDepositMinutes: m.bankTransferDeposit ?? 60,
      gatewayDepositMinutes: m.gatewayDeposit ?? 30,
      withdrawalApprovalMinutes: m.withdrawalApproval ?? 1440,
      storeCheckoutMinutes: m.storeCheckout ?? 30,
      checkoutSessionMinutes: m.checkoutSession ?? 30,
    },
  };
}

/** Creates a merchant with its server IP allow-list (addresses normalised; an invalid one throws). */
export async function createMerchant(db: Db, input: NewMerchant) {
  const { addresses, values } = newMerchantValues(input);
  return db.merchant.create({ data: { ...values, allowedIps: { create: addresses.map((address) => ({ address })) } } });
}
