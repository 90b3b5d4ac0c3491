// Matching new payments against scenario rules (docs/api.md "Scenario rules"), on the create path's one read and
// one write (docs/architecture.md "Hot paths"), and the `scenario` member a matched payment shows.
import { z } from "zod";
import type { Tx } from "@/lib/platform/db";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import { FailureCode } from "@/lib/contract/schemas/api/failure-codes";
import { PaymentScenario, ScenarioOutcome } from "@/lib/contract/schemas/api/scenario-rules";
import { parseStored } from "@/lib/contract/schemas/stored/parse";

/** What a payment's creation needs to know about it: amount (decimal text), reference, method, direction, currency. */
export type MatchInput = { amount: string; reference: string; method: string; direction: string; currency: string };

/**
 * The first enabled rule of merchant `m` (an SQL expression such as `m.id`) that matches `input`, by position, as
 * JSON `{id, name, outcome, delayMs, failureCode}` or NULL: a column of the create statement's read. It probes the partial index
 * of enabled rules, so a merchant without any costs one empty index scan and no round trip.
 */
export function matchingRuleColumn(m: Prisma.Sql, input: MatchInput): Prisma.Sql {
  return Prisma.sql`(SELECT jsonb_build_object('id', r.id, 'name', r.name, 'outcome', r.outcome, 'delayMs', r.delay_ms,
      'failureCode', r.failure_code)
    FROM scenario_rules r
    WHERE r.merchant_id = ${m} AND r.enabled
      AND (r.match_amount IS NULL OR r.match_amount = ${input.amount}::numeric)
      AND (r.match_reference_prefix IS NULL OR starts_with(${input.reference}::text, r.match_reference_prefix))
      AND (r.match_method IS NULL OR r.match_method::text = ${input.method})
      AND (r.match_direction IS NULL OR r.match_direction::text = ${input.direction})
      AND (r.match_currency IS NULL OR r.match_currency = ${input.currency})
    ORDER BY r.position, r.created_at LIMIT 1)`;
}

const MatchedRule = z.object({ id: z.uuid(), name: z.string(), outcome: ScenarioOutcome, delayMs: z.int(), failureCode: FailureCode.nullable() });
export type MatchedRule = z.infer<typeof MatchedRule>;

/** The rule {@link matchingRuleColumn} read, or null. */
export function matchedRule(column: unknown): MatchedRule | null {
  return column === null || column === undefined ? null : MatchedRule.parse(column);
}

/**
 * When a matched payment's conclusion is due: creation + delay for a deposit; null for a withdrawal awaiting approval
 * (the delay counts from approval, {@link scheduleAfterApproval}) and for EXPIRE (nothing is done).
 */
export function conclusionDueAt(rule: MatchedRule, status: string, now: Date): Date | null {
  if (rule.outcome === "EXPIRE" || status === "PENDING_APPROVAL") return null;
  return new Date(now.getTime() + rule.delayMs);
}

/** The INSERT of a matched payment's pending conclusion: a member of the create statement's `WITH`. */
export function conclusionInsert(paymentId: string, merchantId: string, rule: MatchedRule, dueAt: Date | null, now: Date): Prisma.Sql {
  return Prisma.sql`INSERT INTO scenario_conclusions (payment_id, merchant_id, rule_id, rule_name, outcome, delay_ms, failure_code, due_at, created_at)
    VALUES (${paymentId}::uuid, ${merchantId}::uuid, ${rule.id}::uuid, ${rule.name}, ${rule.outcome}, ${rule.delayMs}, ${rule.failureCode}, ${dueAt}, ${now})`;
}

/**
 * A payment's `scenario` member (docs/api.md "Scenario rules"). EXPIRE shows the payment's expiresAt as dueAt;
 * `failureCode` is there only when the rule had one (docs/api.md "Failure codes").
 * @throws StoredDataError when a stored failure code is not one of the table's
 */
export function paymentScenario(
  c: { ruleId: string; ruleName: string; outcome: string; failureCode: string | null; dueAt: Date | null; doneAt: Date | null; result: string | null },
  expiresAt: Date | null,
): PaymentScenario {
  const outcome = ScenarioOutcome.parse(c.outcome);
  const dueAt = outcome === "EXPIRE" ? expiresAt : c.dueAt;
  return {
    ruleId: c.ruleId,
    name: c.ruleName,
    outcome,
    ...(c.failureCode === null ? {} : { failureCode: parseStored(FailureCode, c.failureCode, "scenario_conclusions.failure_code") }),
    dueAt: dueAt?.toISOString() ?? null,
    concludedAt: c.result === "CONCLUDED" && c.doneAt ? c.doneAt.toISOString() : null,
  };
}

/** The conclusion of payment `p` (an SQL alias) as a JSON column of a read, or NULL: one primary-key probe. */
export function conclusionColumn(p: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT jsonb_build_object('ruleId', c.rule_id, 'ruleName', c.rule_name, 'outcome', c.outcome, 'failureCode', c.failure_code, 'dueAt', c.due_at,
    'doneAt', c.done_at, 'result', c.result) FROM scenario_conclusions c WHERE c.payment_id = ${p}.id)`;
}

const ConclusionJson = z.object({
  ruleId: z.string(),
  ruleName: z.string(),
  outcome: z.string(),
  failureCode: z.string().nullable(),
  dueAt: z
    .string()
    .nullable()
    .transform((v) => (v === null ? null : new Date(v))),
  doneAt: z
    .string()
    .nullable()
    .transform((v) => (v === null ? null : new Date(v))),
  result: z.string().nullable(),
});

/** The `scenario` member from {@link conclusionColumn}'s value, or null. */
export function scenarioFromColumn(column: unknown, expiresAt: Date | null): PaymentScenario | null {
  return column === null || column === undefined ? null : paymentScenario(ConclusionJson.parse(column), expiresAt);
}

/** A payment's `scenario` member read on its own (console payment page), or null. */
export async function readPaymentScenario(tx: Tx | import("@/lib/platform/db").Db, paymentId: string, expiresAt: Date | null): Promise<PaymentScenario | null> {
  const c = await tx.scenarioConclusion.findUnique({ where: { paymentId } });
  return c ? paymentScenario(c, expiresAt) : null;
}

/**
 * On a withdrawal's approval (lib/domain/payments/approve.ts): its pending SUCCEEDED or FAILED conclusion becomes due
 * `delayMs` after `now`, in the approval's transaction (docs/api.md "Scenario rules": the delay counts from approval).
 */
export async function scheduleAfterApproval(tx: Tx, paymentId: string, now: Date): Promise<void> {
  await tx.$executeRaw`UPDATE scenario_conclusions SET due_at = ${now}::timestamptz + delay_ms * interval '1 millisecond'
    WHERE payment_id = ${paymentId}::uuid AND due_at IS NULL AND done_at IS NULL AND outcome <> 'EXPIRE'`;
}
