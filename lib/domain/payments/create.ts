import type { AuthenticatedKey } from "@/lib/domain/keys/api-keys";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { IdRow, parseRow, parseRows, selectAs, type SelectOf, type Tx } from "@/lib/platform/db";
import { PaymentRowSchema } from "@/lib/domain/payments/payment-row";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import { apiError, fieldError } from "@/lib/contract/errors";
import { toMinor } from "@/lib/contract/money/currency";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { assertAmountInRange, consumeLimits, limitCount, limitRefusal } from "@/lib/domain/pricing/limits";
import { directRate, latestVersionColumn, pricingOf, rateFrom, ratesColumn, resolvePricing, type ResolvedPricing } from "@/lib/domain/pricing/resolve";
import { computeSnapshot } from "@/lib/domain/pricing/snapshot";
import { bankAccountsColumn, bankCapacityError, bankRouteCandidates, bankUsageCount } from "@/lib/domain/payments/routing";
import { serializePayment, type PaymentResource, type PaymentRow } from "@/lib/domain/payments/serialize";
import { customerProfile } from "@/lib/domain/customers/profile";
import { activeRulesColumn, applicableRules, consumeVelocity, parseRules, velocityCount, velocityRefusal } from "@/lib/domain/risk/velocity";
import { assertNotBlocked, blockedError, blockListHit } from "@/lib/domain/risk/block-list";
import type { CreatePayment } from "@/lib/contract/schemas/api/payments";
import type { Customer } from "@/lib/contract/schemas/api/common";
import { conclusionDueAt, conclusionInsert, matchedRule, matchingRuleColumn, paymentScenario } from "@/lib/domain/scenarios/match";
import { assertWithinGlobalLimit, getSettings, settingsOf, SETTINGS_COLUMN, type ServiceSettings } from "@/lib/domain/settings/service-settings";

type Merchant = AuthenticatedKey["merchant"];
export type Channel = "BANK_TRANSFER" | "GATEWAY" | "STORE";

type Admission = {
  merchant: Merchant;
  channel: Channel;
  reference: string;
  amountMinor: bigint;
  currency: string;
  customer?: Customer;
  requiredCustomer: readonly (keyof Customer)[];
  riskView?: (customer: Customer | undefined) => Customer | undefined;
  now: Date;
};

/**
 * The checks of a new payment that need no counter (docs/api.md "Payments" rules, "Errors"), in order: currency
 * enabled, intake open for the channel, global amount limit, required customer members.
 * @returns the customer to store (blank members left out, docs/api.md "Customer") and as the risk checks see it
 * @throws ApiError VALIDATION_ERROR, PAYMENT_INTAKE_PAUSED, GLOBAL_AMOUNT_LIMIT, CUSTOMER_PROFILE_REQUIRED
 */
function admissionChecks(input: Admission, settings: ServiceSettings): { customer: Customer | undefined; riskCustomer: Customer | undefined } {
  if (!input.merchant.enabledCurrencies.includes(input.currency)) {
    throw fieldError("currency", `${input.currency} is not enabled for this merchant`);
  }
  if (settings.intakePaused || settings.pausedChannels.includes(input.channel)) {
    throw apiError("PAYMENT_INTAKE_PAUSED", "the service is not accepting new payments on this channel right now; retry later with the same Idempotency-Key");
  }
  assertWithinGlobalLimit(settings, input.amountMinor);
  const customer = customerProfile(input.customer, input.requiredCustomer);
  return { customer, riskCustomer: input.riskView ? input.riskView(customer) : customer };
}

const duplicateReference = () => apiError("DUPLICATE_REFERENCE", "a payment with this reference already exists for this merchant");

/**
 * The checks every new payment passes before pricing (docs/api.md "Payments" rules, "Errors"): those of
 * admissionChecks, then the block list, velocity rules (counted in this transaction), and a reference not used
 * before by the merchant. `riskView` gives the customer as the risk checks see it (the store flow's stable
 * customer reference).
 * @returns the customer to store: blank members left out (docs/api.md "Customer")
 * @throws ApiError VALIDATION_ERROR, PAYMENT_INTAKE_PAUSED, GLOBAL_AMOUNT_LIMIT, CUSTOMER_PROFILE_REQUIRED,
 *   RISK_REJECTED, DUPLICATE_REFERENCE
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function admitPayment(tx: Tx, input: Admission): Promise<Customer | undefined> {
  const { merchant } = input;
  const { customer, riskCustomer } = admissionChecks(input, await getSettings(tx));
  await assertNotBlocked(tx, merchant.id, riskCustomer);
  await consumeVelocity(tx, {
    merchantId: merchant.id,
    customer: riskCustomer,
    amount: { minor: input.amountMinor, currency: input.currency },
    now: input.now,
  });
  const [existing] = parseRows(
    IdRow,
    await tx.$queryRaw<Record<string, unknown>[]>`SELECT id FROM payments WHERE merchant_id = ${merchant.id}::uuid AND reference = ${input.reference}`,
  );
  if (existing) throw duplicateReference();
  return customer;
}

type PriceInput = {
  merchant: Merchant;
  currency: string;
  channel: "BANK_TRANSFER" | "GATEWAY";
  direction: "DEPOSIT" | "WITHDRAWAL";
  amountMinor: bigint;
  now: Date;
  requireChargeCurrency?: string;
};

/**
 * Prices a new payment from its resolved pricing and a rate lookup (docs/api.md "Pricing"): the charge currency
 * the caller requires, the direct rates of today's Dubai day, the profile's amount bounds, then the snapshot and fee.
 * @throws ApiError PROVIDER_CURRENCY_MISMATCH, FX_RATE_MISSING, AMOUNT_OUT_OF_RANGE
 */
async function priceWith(input: PriceInput, resolved: ResolvedPricing, rate: (base: string, quote: string, day: string) => Promise<string> | string) {
  const day = dubaiDay(input.now);
  const { terms, version } = resolved;
  if (input.requireChargeCurrency && terms.chargeCurrency !== input.requireChargeCurrency) {
    const what = `${input.currency} ${input.channel === "GATEWAY" ? "gateway" : "bank-transfer"} ${input.direction === "DEPOSIT" ? "deposits" : "withdrawals"}`;
    throw apiError(
      "PROVIDER_CURRENCY_MISMATCH",
      version
        ? `the provider charges in ${input.requireChargeCurrency} but this merchant's pricing profile for ${what} charges in ${terms.chargeCurrency}; an operator changes its charge currency to ${input.requireChargeCurrency} in the console (Pricing)`
        : `this merchant has no pricing profile for ${what} charging ${input.requireChargeCurrency}, which the provider needs (payments in ${input.requireChargeCurrency} itself need none); an operator sets one up in the console (Pricing), with today's ${input.currency}->${input.requireChargeCurrency} rate (Rates)`,
    );
  }
  const baseRate = await rate(input.currency, terms.chargeCurrency, day);
  const settlementRate = await rate(input.currency, terms.settlementCurrency, day);
  if (version) assertAmountInRange(version, input.amountMinor);
  const snapshot = computeSnapshot({
    amountMinor: input.amountMinor,
    currency: input.currency,
    direction: input.direction,
    terms,
    baseRate,
    settlementRate,
    rateDay: day,
  });
  return { snapshot, day, version, profileId: version?.profileId ?? null, feeMinor: toMinor(snapshot.fee) };
}

/**
 * Prices a new payment in the caller's transaction (docs/api.md "Pricing", "Limits"): resolves the profile,
 * prices it (priceWith), and consumes the profile's daily and monthly limits.
 * @throws ApiError PRICING_DISABLED, FX_RATE_MISSING, AMOUNT_OUT_OF_RANGE, DAILY_LIMIT, MONTHLY_LIMIT
 */
export async function pricePayment(tx: Tx, input: PriceInput) {
  const resolved = await resolvePricing(tx, input.merchant, input.currency, input.channel, input.direction);
  const priced = await priceWith(input, resolved, (base, quote, day) => directRate(tx, base, quote, day));
  if (priced.version) await consumeLimits(tx, priced.version, input.amountMinor, priced.day);
  return priced;
}

/** Acceptance period in minutes by kind (docs/api.md "Payment states" defaults: bank-transfer deposit 60, gateway deposit 30, withdrawal approval 1440). */
export function acceptanceMinutes(merchant: Merchant, method: string, direction: string): number {
  if (direction === "WITHDRAWAL") return merchant.withdrawalApprovalMinutes;
  return method === "GATEWAY" ? merchant.gatewayDepositMinutes : merchant.bankTransferDepositMinutes;
}

type NewPayment = {
  apiKey: AuthenticatedKey;
  kind: "STANDARD" | "STORE";
  reference: string;
  amountMinor: bigint;
  currency: string;
  method: "BANK_TRANSFER" | "GATEWAY";
  direction: "DEPOSIT" | "WITHDRAWAL";
  status: "PENDING" | "PENDING_APPROVAL";
  priced: { snapshot: object; day: string; profileId: string | null; feeMinor: bigint };
  bankAccountId?: string | null;
  description?: string;
  customer?: Customer;
  acceptanceMinutes: number;
  now: Date;
};

/**
 * A new payment's row, complete before it is written (its id is made here): the priced snapshot, limit profile,
 * Dubai business day, creating identity (the key's owner) and expiresAt = now + acceptanceMinutes.
 */
function newPaymentRow(input: NewPayment): PaymentRow {
  const { apiKey, priced, now } = input;
  return {
    id: randomUUID(),
    merchantId: apiKey.merchant.id,
    reference: input.reference,
    kind: input.kind,
    amountMinor: input.amountMinor,
    feeMinor: priced.feeMinor,
    currency: input.currency,
    method: input.method,
    direction: input.direction,
    status: input.status,
    pricing: priced.snapshot as Prisma.JsonObject,
    limitProfileId: priced.profileId,
    businessDay: priced.day,
    bankAccountId: input.bankAccountId ?? null,
    description: input.description ?? null,
    customer: input.customer ?? null,
    createdById: apiKey.ownerId,
    apiKeyId: apiKey.id,
    approvedById: null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + input.acceptanceMinutes * 60_000),
    clockOffsetMs: apiKey.merchant.clockOffsetMs === 0n ? null : apiKey.merchant.clockOffsetMs,
    // The database stamps recorded_at (its default) when the row is written; the answer does not show it.
    recordedAt: null,
    approvedAt: null,
    finalizedAt: null,
    updatedAt: now,
    failureCode: null,
  };
}

/** The INSERT of a new payment's row ({@link newPaymentRow}). */
function paymentInsert(row: PaymentRow): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO payments (id, merchant_id, reference, kind, amount_minor, fee_minor, currency, method, direction, status, pricing,
      limit_profile_id, business_day, bank_account_id, description, customer, created_by_id, api_key_id, created_at, expires_at, clock_offset_ms, updated_at)
    VALUES (${row.id}::uuid, ${row.merchantId}::uuid, ${row.reference}, ${row.kind}::"PaymentKind", ${row.amountMinor}, ${row.feeMinor},
      ${row.currency}, ${row.method}::"PaymentMethod", ${row.direction}::"PaymentDirection", ${row.status}::"PaymentStatus",
      ${JSON.stringify(row.pricing)}::jsonb, ${row.limitProfileId}::uuid, ${row.businessDay}, ${row.bankAccountId}::uuid,
      ${row.description}, ${row.customer === null ? null : JSON.stringify(row.customer)}::jsonb, ${row.createdById}::uuid,
      ${row.apiKeyId}::uuid, ${row.createdAt}, ${row.expiresAt}, ${row.clockOffsetMs}::bigint, ${row.updatedAt})`;
}

/**
 * Inserts a new payment row (the last step of createStorePayment) in the caller's transaction, with its store
 * checkout when `storeCheckout` is given.
 * @returns the row with its store checkout
 */
export async function insertPayment(
  tx: Tx,
  input: NewPayment & { storeCheckout?: Omit<Prisma.StoreCheckoutCreateWithoutPaymentInput, "expiresAt"> },
): Promise<PaymentRow> {
  const [row] = await tx.$queryRaw<Record<string, unknown>[]>`${paymentInsert(newPaymentRow(input))} RETURNING *`;
  const payment = parseRow(PaymentRowSchema, row);
  if (!input.storeCheckout) return { ...payment, storeCheckout: null };
  if (!payment.expiresAt) throw new Error(`store payment ${payment.id} was inserted without an expiry`);
  const storeCheckout = await tx.storeCheckout.create({
    data: { ...input.storeCheckout, paymentId: payment.id, expiresAt: payment.expiresAt, createdAt: input.now, updatedAt: input.now },
  });
  return { ...payment, storeCheckout };
}

/** A JSON object column, or NULL. */
const JsonObject = z.record(z.string(), z.unknown());

/**
 * The row {@link createPaymentReads} reads: every column is required (a missing one is a schema drift, 500), and the
 * JSON ones are checked in depth by the service that reads them (settingsOf, parseRules, pricingOf, rateFrom,
 * bankRouteCandidates, matchedRule).
 */
export const CreatePaymentLoaded = z.object({
  settings: JsonObject.nullable(),
  blocked: z.boolean(),
  velocityRules: z.array(z.unknown()),
  referenceTaken: z.boolean(),
  pricingVersion: JsonObject.nullable(),
  rates: JsonObject,
  bankAccounts: z.array(z.unknown()).nullable(),
  scenarioRule: JsonObject.nullable(),
});
export type CreatePaymentLoaded = z.output<typeof CreatePaymentLoaded>;

/**
 * What `POST /v1/payments` reads, joined to the request's authentication statement (docs/architecture.md "Hot
 * paths"; `m` is the key's merchant): service settings, the block-list match, active velocity rules, whether the
 * reference is taken, the latest pricing version, today's direct rates from the currency, the bank accounts'
 * use (bank-transfer deposits) and the first enabled scenario rule that matches (docs/api.md "Scenario rules").
 * The columns are named after {@link CreatePaymentLoaded}'s members (lib/platform/db.ts selectAs).
 */
export function createPaymentReads(body: CreatePayment, now: Date): Prisma.Sql {
  const m = Prisma.raw("m.id");
  const day = dubaiDay(now);
  const routed = body.method === "BANK_TRANSFER" && body.direction === "DEPOSIT";
  const columns: SelectOf<typeof CreatePaymentLoaded> = {
    settings: SETTINGS_COLUMN,
    blocked: blockListHit(m, customerProfile(body.customer, [])),
    velocityRules: activeRulesColumn(m),
    referenceTaken: Prisma.sql`EXISTS (SELECT 1 FROM payments WHERE merchant_id = m.id AND reference = ${body.reference})`,
    pricingVersion: latestVersionColumn(m, { currency: body.currency, channel: body.method, direction: body.direction }),
    rates: ratesColumn(body.currency, day),
    bankAccounts: routed ? bankAccountsColumn(day) : Prisma.sql`NULL::jsonb`,
    scenarioRule: matchingRuleColumn(m, body),
  };
  return Prisma.sql`SELECT ${selectAs(columns)}`;
}

/**
 * The reads of `POST /v1/payments` as the request pipeline takes them (lib/application/http/endpoint.ts `Load`; the operation
 * entry createPayment declares `load: true`): the SELECT and its row checked by {@link CreatePaymentLoaded}.
 * @throws ZodError from `parse` when a column is missing or of another type (500 INTERNAL_ERROR)
 */
export const createPaymentLoad = {
  operationId: "createPayment" as const,
  sql: ({ body, now }: { body: CreatePayment; now: Date }) => createPaymentReads(body, now),
  parse: (row: Record<string, unknown>): CreatePaymentLoaded => CreatePaymentLoaded.parse(row),
};

/** The first answer of `POST /v1/payments`: 201 and the created Payment (the operation entry's success answer). */
type Created = { status: 201; body: PaymentResource; resourceId: string };

/** Writes a first answer and its effects in one statement (the request pipeline's `commit`, lib/application/http/pipeline.ts). */
type Commit<R> = (response: Created, effects: Prisma.Sql, checks: Prisma.Sql) => Promise<R>;

/**
 * `POST /v1/payments` (docs/api.md): creates a sandbox deposit (PENDING) or withdrawal (PENDING_APPROVAL) with its
 * immutable pricing snapshot, from what {@link createPaymentReads} read, in one statement through `commit`: the
 * idempotency record, the payment, the profile's limit counters, velocity counters and the bank account's use,
 * each bound in its WHERE clause (docs/architecture.md "Hot paths"), and the pending conclusion of a matching
 * scenario rule (docs/api.md "Scenario rules"). The API key's owner is the creating identity.
 * @returns what `commit` returns for the 201 answer (a replay when a concurrent identical request won)
 * @throws ApiError as admissionChecks and priceWith, RISK_REJECTED, DUPLICATE_REFERENCE, PRICING_DISABLED,
 *   DAILY_LIMIT, MONTHLY_LIMIT, VALIDATION_ERROR (GATEWAY withdrawal), NO_ROUTE / BANK_CAPACITY
 */
export async function createPayment<R>(input: {
  apiKey: AuthenticatedKey;
  body: CreatePayment;
  now: Date;
  loaded: CreatePaymentLoaded;
  commit: Commit<R>;
}): Promise<R> {
  const { apiKey, body, now, loaded } = input;
  const merchant = apiKey.merchant;
  if (body.method === "GATEWAY" && body.direction === "WITHDRAWAL") {
    throw fieldError("method", "GATEWAY supports deposits only");
  }
  const amountMinor = toMinor(body.amount);
  const admission = {
    merchant,
    channel: body.method,
    reference: body.reference,
    amountMinor,
    currency: body.currency,
    customer: body.customer,
    requiredCustomer: merchant.requiredCustomerFields,
    now,
  };
  const { customer, riskCustomer } = admissionChecks(admission, settingsOf(loaded.settings));
  if (loaded.blocked) throw blockedError();
  const applicable = applicableRules(parseRules(loaded.velocityRules), riskCustomer, { minor: amountMinor, currency: body.currency }, now);
  if (loaded.referenceTaken) throw duplicateReference();
  const kind = { currency: body.currency, channel: body.method, direction: body.direction };
  const priced = await priceWith({ ...kind, merchant, amountMinor, now }, pricingOf(loaded.pricingVersion, merchant, kind), (base, quote, day) =>
    rateFrom(loaded.rates, base, quote, day),
  );
  const rule = matchedRule(loaded.scenarioRule);
  const accounts = loaded.bankAccounts === null ? [null] : bankRouteCandidates(loaded.bankAccounts);
  for (const account of accounts) {
    const row = newPaymentRow({
      apiKey,
      kind: "STANDARD",
      reference: body.reference,
      amountMinor,
      currency: body.currency,
      method: body.method,
      direction: body.direction,
      status: body.direction === "DEPOSIT" ? "PENDING" : "PENDING_APPROVAL",
      priced,
      bankAccountId: account?.id ?? null,
      description: body.description,
      customer,
      acceptanceMinutes: acceptanceMinutes(merchant, body.method, body.direction),
      now,
    });
    const effects = [
      Prisma.sql`payment AS (${paymentInsert(row)} RETURNING id)`,
      priced.version
        ? Prisma.sql`limits AS (${limitCount(priced.version, amountMinor, priced.day)})`
        : Prisma.sql`limits AS (SELECT ${`D:${priced.day}`} AS period UNION ALL SELECT ${`M:${priced.day.slice(0, 7)}`})`,
      applicable.length
        ? Prisma.sql`velocity AS (${velocityCount(applicable, amountMinor)})`
        : Prisma.sql`velocity AS (SELECT NULL::uuid AS "ruleId" WHERE false)`,
      account ? Prisma.sql`bank AS (${bankUsageCount(account, priced.day)})` : Prisma.sql`bank AS (SELECT 1 AS used)`,
    ];
    const dueAt = rule ? conclusionDueAt(rule, row.status, now) : null;
    // The conclusion's foreign key is checked at the end of the statement, when the payment row exists.
    if (rule) effects.push(Prisma.sql`scenario AS (${conclusionInsert(row.id, merchant.id, rule, dueAt, now)})`);
    // Read first, the idempotency record and the payment are inserted first: a concurrent request with the same key
    // or reference waits on their unique indexes (then replays, or is DUPLICATE_REFERENCE) before it counts anything.
    // Then the refusals, in the order the checks are made one by one: velocity, route, day, month.
    const checks = Prisma.sql`CASE
      WHEN NOT EXISTS (SELECT 1 FROM idempotency) OR NOT EXISTS (SELECT 1 FROM payment) THEN refuse_statement('NOT_WRITTEN')
      WHEN (SELECT count(*) FROM velocity) < ${applicable.length} THEN refuse_statement('RISK_REJECTED:' || coalesce((SELECT string_agg("ruleId"::text, ',') FROM velocity), ''))
      WHEN NOT EXISTS (SELECT 1 FROM bank) THEN refuse_statement('BANK_ROUTE_TAKEN')
      WHEN NOT EXISTS (SELECT 1 FROM limits WHERE period LIKE 'D:%') THEN refuse_statement('DAILY_LIMIT')
      WHEN NOT EXISTS (SELECT 1 FROM limits WHERE period LIKE 'M:%') THEN refuse_statement('MONTHLY_LIMIT')
      ELSE true END AS admitted`;
    const scenario = rule
      ? paymentScenario(
          { ruleId: rule.id, ruleName: rule.name, outcome: rule.outcome, failureCode: rule.failureCode, dueAt, doneAt: null, result: null },
          row.expiresAt,
        )
      : null;
    const response: Created = { status: 201, body: serializePayment({ ...row, scenario }, { detail: true }), resourceId: row.id };
    try {
      return await input.commit(response, Prisma.join(effects, ", "), checks);
    } catch (error) {
      const refusal = statementRefusal(error);
      if (refusal === null) throw error;
      if (refusal === "BANK_ROUTE_TAKEN") continue; // a concurrent request took the account's last unit: the next one
      // Each names the rule or period the statement refused; the statement's own error when it names none.
      if (refusal.startsWith("RISK_REJECTED:")) throw velocityRefusal(applicable, new Set(refusal.slice("RISK_REJECTED:".length).split(","))) ?? error;
      if (refusal === "DAILY_LIMIT") throw limitRefusal(priced.day, new Set()) ?? error;
      if (refusal === "MONTHLY_LIMIT") throw limitRefusal(priced.day, new Set([`D:${priced.day}`])) ?? error;
      throw error;
    }
  }
  throw bankCapacityError();
}

/**
 * The code refuse_statement raised (SQLSTATE SPREF, the code in the error's `detail` member: DAILY_LIMIT,
 * MONTHLY_LIMIT, RISK_REJECTED:<rule ids>, BANK_ROUTE_TAKEN), or null for any other error.
 */
function statementRefusal(error: unknown): string | null {
  const e = error as { code?: unknown; detail?: unknown } | null;
  return e?.code === "SPREF" && typeof e.detail === "string" ? e.detail : null;
}
