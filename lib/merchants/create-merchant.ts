import { hash } from "@node-rs/argon2";
import type { Db } from "@/lib/db";
import { CURRENCIES } from "@/lib/money/currency";
import { normalizeIp } from "@/lib/auth/ip";

/**
 * Hashes a console password with argon2id (OWASP parameters: 19 MiB, 2 iterations).
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

export type NewMerchant = {
  name: string;
  status?: "ACTIVE" | "INACTIVE";
  enabledCurrencies?: string[];
  defaultCommissionBps?: number;
  callbackUrl?: string | null;
  callbackSecret?: string | null;
  allowedIps?: string[];
  amountEntryEnabled?: boolean;
  requiredCustomerFields?: string[];
  storeRequiresCountry?: boolean;
  minutes?: Partial<Record<"bankTransferDeposit" | "gatewayDeposit" | "withdrawalApproval" | "storeCheckout" | "checkoutSession", number>>;
};

/** Creates a merchant with its server IP allow-list (addresses normalised; an invalid one throws). */
export async function createMerchant(db: Db, input: NewMerchant) {
  const addresses = (input.allowedIps ?? []).map((ip) => {
    const normalized = normalizeIp(ip);
    if (!normalized) throw new Error(`not an exact IP address: ${ip}`);
    return normalized;
  });
  const m = input.minutes ?? {};
  return db.merchant.create({
    data: {
      name: input.name,
      status: input.status ?? "ACTIVE",
      enabledCurrencies: input.enabledCurrencies ?? [...CURRENCIES],
      defaultCommissionBps: input.defaultCommissionBps ?? 0,
      callbackUrl: input.callbackUrl ?? null,
      callbackSecret: input.callbackSecret ?? null,
      amountEntryEnabled: input.amountEntryEnabled ?? false,
      requiredCustomerFields: input.requiredCustomerFields ?? [],
      storeRequiresCountry: input.storeRequiresCountry ?? false,
      bankTransferDepositMinutes: m.bankTransferDeposit ?? 60,
      gatewayDepositMinutes: m.gatewayDeposit ?? 30,
      withdrawalApprovalMinutes: m.withdrawalApproval ?? 1440,
      storeCheckoutMinutes: m.storeCheckout ?? 30,
      checkoutSessionMinutes: m.checkoutSession ?? 30,
      allowedIps: { create: [...new Set(addresses)].map((address) => ({ address })) },
    },
  });
}

/** Creates a console user with an argon2id password hash. */
export async function createConsoleUser(
  db: Db,
  input: { username: string; password: string; role: "OPERATOR" | "MERCHANT"; merchantId?: string | null },
) {
  return db.consoleUser.create({
    data: {
      username: input.username,
      passwordHash: await hashPassword(input.password),
      role: input.role,
      merchantId: input.role === "MERCHANT" ? (input.merchantId ?? null) : null,
    },
  });
}

/** Saves a new immutable pricing profile version (creating the profile on first use); version = last + 1. */
export async function savePricingVersion(
  db: Db,
  input: {
    merchantId: string;
    currency: string;
    channel: "BANK_TRANSFER" | "GATEWAY";
    direction: "DEPOSIT" | "WITHDRAWAL";
    chargeCurrency: string;
    settlementCurrency: string;
    markupBps?: number;
    bufferBps?: number;
    commissionBps?: number | null;
    commissionFixedMinor?: bigint | null;
    reserveBps?: number;
    delayDays?: number;
    reserveDays?: number;
    minAmountMinor?: bigint | null;
    maxAmountMinor?: bigint | null;
    dailyLimitMinor?: bigint | null;
    monthlyLimitMinor?: bigint | null;
    enabled?: boolean;
    reason: string;
    createdById?: string | null;
  },
) {
  const profile = await db.pricingProfile.upsert({
    where: {
      merchantId_currency_channel_direction: {
        merchantId: input.merchantId,
        currency: input.currency,
        channel: input.channel,
        direction: input.direction,
      },
    },
    create: { merchantId: input.merchantId, currency: input.currency, channel: input.channel, direction: input.direction },
    update: {},
    include: { versions: { orderBy: { version: "desc" }, take: 1 } },
  });
  const fixed = input.commissionFixedMinor ?? null;
  return db.pricingProfileVersion.create({
    data: {
      profileId: profile.id,
      version: (profile.versions[0]?.version ?? 0) + 1,
      chargeCurrency: input.chargeCurrency,
      settlementCurrency: input.settlementCurrency,
      markupBps: input.markupBps ?? 0,
      bufferBps: input.bufferBps ?? 0,
      commissionBps: fixed === null ? (input.commissionBps ?? 0) : null,
      commissionFixedMinor: fixed,
      reserveBps: input.reserveBps ?? 0,
      delayDays: input.delayDays ?? 0,
      reserveDays: input.reserveDays ?? 0,
      minAmountMinor: input.minAmountMinor ?? null,
      maxAmountMinor: input.maxAmountMinor ?? null,
      dailyLimitMinor: input.dailyLimitMinor ?? null,
      monthlyLimitMinor: input.monthlyLimitMinor ?? null,
      enabled: input.enabled ?? true,
      reason: input.reason,
      createdById: input.createdById ?? null,
    },
  });
}
