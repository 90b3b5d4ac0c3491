import type { AuthenticatedKey } from "@/lib/keys/api-keys";
import { randomUUID } from "node:crypto";
import { parseRow, type Tx } from "@/lib/db";
import { PaymentRowSchema } from "@/lib/payments/payment-row";
import type { Prisma } from "@/lib/generated/prisma/client";
import { apiError } from "@/lib/errors";
import { toMinor } from "@/lib/money/currency";
import { dubaiDay } from "@/lib/money/dubai";
import { assertAmountInRange, consumeLimits } from "@/lib/pricing/limits";
import { directRate, resolvePricing } from "@/lib/pricing/resolve";
import { computeSnapshot } from "@/lib/pricing/snapshot";
import { routeBankTransfer } from "@/lib/payments/routing";
import type { PaymentRow } from "@/lib/payments/serialize";
import { customerProfile } from "@/lib/customers/profile";
import { consumeVelocity } from "@/lib/risk/velocity";
import { assertNotBlocked } from "@/lib/risk/block-list";
import type { CreatePayment } from "@/lib/schemas/payments";
import type { Customer } from "@/lib/schemas/common";
import { assertWithinGlobalLimit, getSettings } from "@/lib/settings/service-settings";

type Merchant = AuthenticatedKey["merchant"];
export type Channel = "BANK_TRANSFER" | "GATEWAY" | "STORE";

/**
 * The checks every new payment passes before pricing (docs/api.md "Payments" rules, "Errors"): currency
 * enabled, intake open for the channel, global amount limit, required customer members, block list, velocity
 * rules (counted in this transaction), and a reference not used before by the merchant.
 * `riskView` gives the customer as the risk checks see it (the store flow's stable customer reference).
 * @returns the customer to store: blank members left out (docs/api.md "Customer")
 * @throws ApiError VALIDATION_ERROR, PAYMENT_INTAKE_PAUSED, GLOBAL_AMOUNT_LIMIT, CUSTOMER_PROFILE_REQUIRED,
 *   RISK_REJECTED, DUPLICATE_REFERENCE
 */
export async function admitPayment(
  tx: Tx,
  input: {
    merchant: Merchant;
    channel: Channel;
    reference: string;
    amountMinor: bigint;
    currency: string;
    customer?: Customer;
    requiredCustomer: readonly (keyof Customer)[];
    riskView?: (customer: Customer | undefined) => Customer | undefined;
    now: Date;
  },
): Promise<Customer | undefined> {
  const { merchant } = input;
  if (!merchant.enabledCurrencies.includes(input.currency)) {
    throw apiError("VALIDATION_ERROR", `currency: ${input.currency} is not enabled for this merchant`);
  }
  const settings = await getSettings(tx);
  if (settings.intakePaused || settings.pausedChannels.includes(input.channel)) {
    throw apiError("PAYMENT_INTAKE_PAUSED", "the service is not accepting new payments on this channel right now; retry later with the same Idempotency-Key");
  }
  assertWithinGlobalLimit(settings, input.amountMinor);
  const customer = customerProfile(input.customer, input.requiredCustomer);
  const riskCustomer = input.riskView ? input.riskView(customer) : customer;
  await assertNotBlocked(tx, merchant.id, riskCustomer);
  await consumeVelocity(tx, { merchantId: merchant.id, customer: riskCustomer, amount: { minor: input.amountMinor, currency: input.currency }, now: input.now });
  const [existing] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM payments WHERE merchant_id = ${merchant.id}::uuid AND reference = ${input.reference}`;
  if (existing) throw apiError("DUPLICATE_REFERENCE", "a payment with this reference already exists for this merchant");
  return customer;
}

/**
 * Prices a new payment (docs/api.md "Pricing", "Pricing limits"): resolves the profile, checks its amount
 * bounds, reads the direct rates of today's Dubai day, consumes the profile's limits and returns the snapshot
 * and the fee. With `deferLimits` the limits are not consumed yet: the caller calls the returned
 * `consumeLimits()` as the last step of its transaction, so the profile's counter rows stay locked briefly
 * (without it, `consumeLimits()` is a no-op: limits are consumed once).
 * @throws ApiError PRICING_DISABLED, FX_RATE_MISSING, AMOUNT_OUT_OF_RANGE, DAILY_LIMIT, MONTHLY_LIMIT
 */
export async function pricePayment(
  tx: Tx,
  input: { merchant: Merchant; currency: string; channel: "BANK_TRANSFER" | "GATEWAY"; direction: "DEPOSIT" | "WITHDRAWAL"; amountMinor: bigint; now: Date; requireChargeCurrency?: string; deferLimits?: boolean },
) {
  const day = dubaiDay(input.now);
  const { terms, version } = await resolvePricing(tx, input.merchant, input.currency, input.channel, input.direction);
  if (input.requireChargeCurrency && terms.chargeCurrency !== input.requireChargeCurrency) {
    const what = `${input.currency} ${input.channel === "GATEWAY" ? "gateway" : "bank-transfer"} ${input.direction === "DEPOSIT" ? "deposits" : "withdrawals"}`;
    throw apiError(
      "PROVIDER_CURRENCY_MISMATCH",
      version
        ? `the provider charges in ${input.requireChargeCurrency} but this merchant's pricing profile for ${what} charges in ${terms.chargeCurrency}; an operator changes its charge currency to ${input.requireChargeCurrency} in the console (Pricing)`
        : `this merchant has no pricing profile for ${what} charging ${input.requireChargeCurrency}, which the provider needs (payments in ${input.requireChargeCurrency} itself need none); an operator sets one up in the console (Pricing), with today's ${input.currency}->${input.requireChargeCurrency} rate (Rates)`,
    );
  }
  const baseRate = await directRate(tx, input.currency, terms.chargeCurrency, day);
  const settlementRate = await directRate(tx, input.currency, terms.settlementCurrency, day);
  if (version) assertAmountInRange(version, input.amountMinor);
  let consumed = false;
  // Consumes the profile's limits exactly once, whether called here or later by the caller.
  const consume = async () => {
    if (consumed) return;
    consumed = true;
    if (version) await consumeLimits(tx, version, input.amountMinor, day);
  };
  if (!input.deferLimits) await consume();
  const snapshot = computeSnapshot({ amountMinor: input.amountMinor, currency: input.currency, direction: input.direction, terms, baseRate, settlementRate, rateDay: day });
  return { snapshot, day, profileId: version?.profileId ?? null, feeMinor: toMinor(snapshot.fee), consumeLimits: consume };
}

/** Acceptance period in minutes by kind (docs/api.md "Payment states" defaults: bank-transfer deposit 60, gateway deposit 30, withdrawal approval 1440). */
export function acceptanceMinutes(merchant: Merchant, method: string, direction: string): number {
  if (direction === "WITHDRAWAL") return merchant.withdrawalApprovalMinutes;
  return method === "GATEWAY" ? merchant.gatewayDepositMinutes : merchant.bankTransferDepositMinutes;
}

/**
 * `POST /v1/payments` (docs/api.md): creates a sandbox deposit (PENDING) or withdrawal (PENDING_APPROVAL) with its
 * immutable pricing snapshot, in the caller's transaction. The API key's owner is the creating identity.
 * @throws ApiError as admitPayment and pricePayment, VALIDATION_ERROR (GATEWAY withdrawal), NO_ROUTE / BANK_CAPACITY
 */
export async function createPayment(tx: Tx, input: { apiKey: AuthenticatedKey; body: CreatePayment; now: Date }): Promise<PaymentRow> {
  const { apiKey, body, now } = input;
  const merchant = apiKey.merchant;
  if (body.method === "GATEWAY" && body.direction === "WITHDRAWAL") {
    throw apiError("VALIDATION_ERROR", "method: GATEWAY supports deposits only");
  }
  const amountMinor = toMinor(body.amount);
  const customer = await admitPayment(tx, {
    merchant,
    channel: body.method,
    reference: body.reference,
    amountMinor,
    currency: body.currency,
    customer: body.customer,
    requiredCustomer: merchant.requiredCustomerFields as (keyof Customer)[],
    now,
  });
  const priced = await pricePayment(tx, { merchant, currency: body.currency, channel: body.method, direction: body.direction, amountMinor, now, deferLimits: true });
  const bankAccountId =
    body.method === "BANK_TRANSFER" && body.direction === "DEPOSIT" ? await routeBankTransfer(tx, priced.day) : null;
  return insertPayment(tx, {
    apiKey,
    kind: "STANDARD",
    reference: body.reference,
    amountMinor,
    currency: body.currency,
    method: body.method,
    direction: body.direction,
    status: body.direction === "DEPOSIT" ? "PENDING" : "PENDING_APPROVAL",
    priced,
    bankAccountId,
    description: body.description,
    customer,
    acceptanceMinutes: acceptanceMinutes(merchant, body.method, body.direction),
    now,
  });
}

/**
 * Inserts a new payment row (the last step of createPayment and createStorePayment) with its priced
 * snapshot, limit profile, Dubai business day, creating identity (the key's owner) and expiresAt = now +
 * acceptanceMinutes. `storeCheckout` creates the payment's store checkout in the same statement.
 * @returns the row with its store checkout
 */
export async function insertPayment(
  tx: Tx,
  input: {
    apiKey: AuthenticatedKey;
    kind: "STANDARD" | "STORE";
    reference: string;
    amountMinor: bigint;
    currency: string;
    method: "BANK_TRANSFER" | "GATEWAY";
    direction: "DEPOSIT" | "WITHDRAWAL";
    status: "PENDING" | "PENDING_APPROVAL";
    priced: Awaited<ReturnType<typeof pricePayment>>;
    bankAccountId?: string | null;
    description?: string;
    customer?: Customer;
    acceptanceMinutes: number;
    now: Date;
    storeCheckout?: Omit<Prisma.StoreCheckoutCreateWithoutPaymentInput, "expiresAt">;
  },
): Promise<PaymentRow> {
  const { apiKey, priced, now } = input;
  const expiresAt = new Date(now.getTime() + input.acceptanceMinutes * 60_000);
  // Raw SQL, the row checked by parseRow (lib/db.ts). The store checkout, when
  // there is one, follows in the same transaction.
  const [row] = await tx.$queryRaw<Record<string, unknown>[]>`
    INSERT INTO payments (id, merchant_id, reference, kind, amount_minor, fee_minor, currency, method, direction, status, pricing,
      limit_profile_id, business_day, bank_account_id, description, customer, created_by_id, api_key_id, created_at, expires_at, updated_at)
    VALUES (${randomUUID()}::uuid, ${apiKey.merchant.id}::uuid, ${input.reference}, ${input.kind}::"PaymentKind", ${input.amountMinor}, ${priced.feeMinor},
      ${input.currency}, ${input.method}::"PaymentMethod", ${input.direction}::"PaymentDirection", ${input.status}::"PaymentStatus",
      ${JSON.stringify(priced.snapshot)}::jsonb, ${priced.profileId}::uuid, ${priced.day}, ${input.bankAccountId ?? null}::uuid,
      ${input.description ?? null}, ${input.customer ? JSON.stringify(input.customer) : null}::jsonb, ${apiKey.ownerId}::uuid,
      ${apiKey.id}::uuid, ${now}, ${expiresAt}, ${now})
    RETURNING *`;
  const payment = parseRow(PaymentRowSchema, row);
  const storeCheckout = input.storeCheckout
    ? await tx.storeCheckout.create({ data: { ...input.storeCheckout, paymentId: payment.id, expiresAt, createdAt: now, updatedAt: now } })
    : null;
  await priced.consumeLimits(); // last: the profile's counter rows stay locked only until the commit
  return { ...payment, storeCheckout };
}
