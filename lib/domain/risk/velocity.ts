import { createHash } from "node:crypto";
import { z } from "zod";
import { parseRow, parseRows, type Db } from "@/lib/platform/db";
import { apiError, type ApiError } from "@/lib/contract/errors";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import type { Customer } from "@/lib/contract/schemas/api/common";

// Velocity rules (docs/api.md "Errors": 403 RISK_REJECTED is a block-list entry or a velocity rule): per merchant,
// at most N payments, or at most an amount in one currency, per customer member within a fixed window.

/** What a rule counts. */
export const RISK_RULE_KINDS = ["COUNT", "AMOUNT"] as const;
/** The customer member a rule keys on, and how a merchant's message names it. */
export const RISK_SUBJECTS = {
  CUSTOMER_ID: { member: "id", label: "customer id" },
  EMAIL: { member: "email", label: "e-mail" },
  PHONE: { member: "phone", label: "phone" },
  USERNAME: { member: "username", label: "username" },
} as const;
export type RiskSubject = keyof typeof RISK_SUBJECTS;
/** Longest window: 31 days, in seconds. */
export const MAX_WINDOW_SECONDS = 31 * 86_400;

/** A new rule as an operator enters it (amounts already in minor units). */
export const RiskRuleInput = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("COUNT"),
    subject: z.enum(Object.keys(RISK_SUBJECTS) as [RiskSubject, ...RiskSubject[]]),
    windowSeconds: z.number().int().min(1).max(MAX_WINDOW_SECONDS),
    maxCount: z.number().int().min(1).max(1_000_000),
  }),
  z.object({
    kind: z.literal("AMOUNT"),
    subject: z.enum(Object.keys(RISK_SUBJECTS) as [RiskSubject, ...RiskSubject[]]),
    windowSeconds: z.number().int().min(1).max(MAX_WINDOW_SECONDS),
    maxAmountMinor: z.bigint().min(1n),
    currency: z.string().regex(/^[A-Z]{3}$/),
  }),
]);
export type RiskRuleInput = z.infer<typeof RiskRuleInput>;

/** The member values a rule compares: trimmed and lower-cased (like the block list), then hashed for storage. */
function subjectHash(subject: RiskSubject, value: string): string {
  return createHash("sha256").update(`${subject}:${value.trim().toLowerCase()}`).digest("hex");
}

/** The start of the fixed window of `seconds` that holds `now` (windows are aligned to the Unix epoch). */
export function windowStart(now: Date, seconds: number): Date {
  const ms = seconds * 1000;
  return new Date(Math.floor(now.getTime() / ms) * ms);
}

/** An active rule as {@link activeRulesColumn} reads it. */
const RuleRow = z.object({
  id: z.string(),
  kind: z.enum(RISK_RULE_KINDS),
  subject: z.enum(Object.keys(RISK_SUBJECTS) as [RiskSubject, ...RiskSubject[]]),
  windowSeconds: z.number().int(),
  maxCount: z.number().int().nullable(),
  maxAmountMinor: z
    .string()
    .nullable()
    .transform((v) => (v === null ? null : BigInt(v))),
  currency: z.string().nullable(),
});
export type VelocityRule = z.output<typeof RuleRow>;
/** The JSON array of {@link activeRulesColumn}. */
const RuleList = z.array(RuleRow);

/**
 * The row of `SELECT activeRulesColumn AS rules` ({@link consumeVelocity}): the merchant's active rules, checked in
 * depth in this one parse (amounts as text, then BigInt).
 */
export const ActiveRulesRow = z.object({ rules: RuleList });

/** A row that {@link velocityCount} returns: a rule (uuid as text) whose bound still holds after this request. */
export const CountedRuleRow = z.object({ ruleId: z.string() });

/**
 * A JSON array of the merchant's active rules (`merchantId`: an expression, e.g. `m.id`), by id, so concurrent
 * creates lock their counters in one order; amounts as text.
 */
export function activeRulesColumn(merchantId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'kind', kind, 'subject', subject, 'windowSeconds', window_seconds,
      'maxCount', max_count, 'maxAmountMinor', max_amount_minor::text, 'currency', currency) ORDER BY id), '[]'::jsonb)
    FROM risk_rules WHERE merchant_id = ${merchantId} AND active)`;
}

/**
 * Checks the JSON of {@link activeRulesColumn}.
 * @throws ZodError when a rule lacks a member or has one of another type
 */
export function parseRules(json: unknown): VelocityRule[] {
  return RuleList.parse(json);
}

/** A rule that counts this request: its counter's subject hash and window. */
export type ApplicableRule = VelocityRule & { hash: string; start: Date; end: Date };

/**
 * The rules that count a request: those whose customer member the request carries (and, for AMOUNT rules, in the
 * rule's currency), each with the window that holds `now`.
 * @param amount null for a checkout session (AMOUNT rules do not apply)
 */
export function applicableRules(
  rules: VelocityRule[],
  customer: Customer | undefined,
  amount: { minor: bigint; currency: string } | null,
  now: Date,
): ApplicableRule[] {
  if (!customer) return [];
  const applicable: ApplicableRule[] = [];
  for (const rule of rules) {
    const value = customer[RISK_SUBJECTS[rule.subject].member];
    if (typeof value !== "string" || value.trim() === "") continue;
    if (rule.kind === "AMOUNT" && (!amount || amount.currency !== rule.currency)) continue;
    const start = windowStart(now, rule.windowSeconds);
    applicable.push({ ...rule, hash: subjectHash(rule.subject, value), start, end: new Date(start.getTime() + rule.windowSeconds * 1000) });
  }
  return applicable;
}

/**
 * The statement that counts a request against its applicable rules (non-empty), with each rule's bound in the
 * statement itself, so concurrent creates can never pass it together: a row comes back (`ruleId`) for each rule
 * whose bound still holds after this request (a new counter only when the request alone is within the bound; an
 * existing one only when its total with this request is). A rule without a row refuses ({@link velocityRefusal}).
 */
export function velocityCount(applicable: ApplicableRule[], amountMinor: bigint): Prisma.Sql {
  return Prisma.sql`
    WITH wanted AS (
      SELECT * FROM unnest(${applicable.map((r) => r.id)}::uuid[], ${applicable.map((r) => r.hash)}::text[],
        ${applicable.map((r) => r.start.toISOString())}::timestamptz[], ${applicable.map((r) => r.end.toISOString())}::timestamptz[],
        ${applicable.map((r) => r.maxCount)}::int[], ${applicable.map((r) => r.maxAmountMinor?.toString() ?? null)}::bigint[])
        AS w(rule_id, subject_hash, window_start, window_end, max_count, max_amount)
    )
    INSERT INTO risk_counters AS c (rule_id, subject_hash, window_start, window_end, n, amount_minor)
    SELECT rule_id, subject_hash, window_start, window_end, 1, ${amountMinor}::bigint FROM wanted
    WHERE (max_count IS NULL OR 1 <= max_count) AND (max_amount IS NULL OR ${amountMinor}::bigint <= max_amount)
    ON CONFLICT (rule_id, subject_hash, window_start) DO UPDATE SET n = c.n + 1, amount_minor = c.amount_minor + EXCLUDED.amount_minor
    WHERE (SELECT (w.max_count IS NULL OR c.n + 1 <= w.max_count) AND (w.max_amount IS NULL OR c.amount_minor + EXCLUDED.amount_minor <= w.max_amount)
           FROM wanted w WHERE w.rule_id = c.rule_id)
    RETURNING rule_id AS "ruleId"`;
}

/**
 * The refusal when a rule's counter did not come back from {@link velocityCount} (`passed`: the rule ids that did),
 * naming the kind of rule (count or amount, and the member), never its bound; null when every rule passed.
 */
export function velocityRefusal(applicable: ApplicableRule[], passed: ReadonlySet<string>): ApiError | null {
  const hit = applicable.find((r) => !passed.has(r.id));
  if (!hit) return null;
  const what = hit.kind === "COUNT" ? "too many payments" : "too large a total amount";
  return apiError(
    "RISK_REJECTED",
    `the payment was rejected by a velocity rule: ${what} for this ${RISK_SUBJECTS[hit.subject].label} in a short time; do not retry with another key`,
  );
}

/**
 * Counts a new payment (or checkout session: `amount` null) against the merchant's active velocity rules, in the
 * creating transaction ({@link applicableRules}, {@link velocityCount}). A refusal rolls the whole transaction back,
 * counters included. Requests without the member are not counted by that rule.
 * @param amount the payment's amount in minor units of `currency`, or null for a checkout session
 * @throws ApiError 403 RISK_REJECTED naming the kind of rule (count or amount, and the member), never its bound
 * @throws ZodError when a row read does not match {@link ActiveRulesRow} or {@link CountedRuleRow} (a schema drift)
 */
export async function consumeVelocity(
  db: Db,
  input: { merchantId: string; customer: Customer | undefined; amount: { minor: bigint; currency: string } | null; now: Date },
): Promise<void> {
  if (!input.customer) return;
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`SELECT ${activeRulesColumn(Prisma.sql`${input.merchantId}::uuid`)} AS rules`;
  const applicable = applicableRules(parseRow(ActiveRulesRow, row).rules, input.customer, input.amount, input.now);
  if (applicable.length === 0) return;
  const counted = parseRows(CountedRuleRow, await db.$queryRaw<Record<string, unknown>[]>(velocityCount(applicable, input.amount?.minor ?? 0n)));
  const refusal = velocityRefusal(applicable, new Set(counted.map((r) => r.ruleId)));
  if (refusal) throw refusal;
}
