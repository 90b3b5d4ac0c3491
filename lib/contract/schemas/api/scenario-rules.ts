import { z } from "zod";
import { Amount, CurrencyCode, CurrencyText, merchantText, Timestamp } from "@/lib/contract/schemas/api/common";
import { FailureCode, failureCodeOnlyWithFailed } from "@/lib/contract/schemas/api/failure-codes";

// Requests and responses of the scenario rules (docs/api.md "Scenario rules"): the published schemas and the types
// of their serialisers.

/** A rule's outcome: conclude as SUCCEEDED or FAILED after `delayMs`, or EXPIRE (nothing is done; the normal expiry applies). */
export const ScenarioOutcome = z.enum(["SUCCEEDED", "FAILED", "EXPIRE"]);
export type ScenarioOutcome = z.infer<typeof ScenarioOutcome>;

/** The longest delay a rule may have: one hour, in milliseconds. */
export const MAX_SCENARIO_DELAY_MS = 3_600_000;

const MatchMembers = {
  amount: Amount.refine((text) => /[1-9]/.test(text), { message: 'must be above zero, e.g. "13.13"' }).describe(
    'The exact amount, above zero, decimal text in the payment\'s currency, whichever it is ("13.13" matches 13.13 USD and 13.13 AED).',
  ),
  referencePrefix: merchantText(z.string().min(1).max(64)).describe('The reference starts with this text (case-sensitive), e.g. "fail-".'),
  method: z.enum(["BANK_TRANSFER", "GATEWAY"]).describe("Only payments of this method."),
  direction: z.enum(["DEPOSIT", "WITHDRAWAL"]).describe("Only deposits or only withdrawals."),
  currency: CurrencyCode.describe("Only payments in this currency."),
};

/** What a rule matches: `amount` or `referencePrefix` (or both), optionally narrowed by method, direction and currency. */
export const ScenarioMatch = z
  .strictObject({
    amount: MatchMembers.amount.optional(),
    referencePrefix: MatchMembers.referencePrefix.optional(),
    method: MatchMembers.method.optional(),
    direction: MatchMembers.direction.optional(),
    currency: MatchMembers.currency.optional(),
  })
  .refine((m) => m.amount !== undefined || m.referencePrefix !== undefined, {
    message: "give amount or referencePrefix (or both); method, direction and currency only narrow them",
  })
  .describe("Which new payments the rule concludes: every member given must hold. amount or referencePrefix is required.");
export type ScenarioMatch = z.infer<typeof ScenarioMatch>;

const Delay = z
  .int()
  .min(0)
  .max(MAX_SCENARIO_DELAY_MS)
  .describe("Milliseconds from creation (for a withdrawal: from approval) to the conclusion, 0 to 3600000. Ignored for EXPIRE.");
const Name = merchantText(z.string().trim().min(1).max(100)).describe("A name shown on the payments the rule concludes.");
const RuleFailureCode = 'Only with outcome FAILED: the failure code the payments the rule fails show as `failure: {code, message}` (docs: "Failure codes").';

/** `POST /v1/sandbox/scenario-rules` body. */
export const CreateScenarioRule = z
  .strictObject({
    name: Name,
    enabled: z.boolean().default(false).describe("Off by default: a rule applies only once enabled."),
    position: z.int().min(1).max(1000).optional().describe("Order among the merchant's rules (the first enabled match wins); default: after the last."),
    match: ScenarioMatch.describe(
      "Which new payments the rule concludes: amount or referencePrefix (or both), optionally narrowed by method, direction and currency.",
    ),
    outcome: ScenarioOutcome.describe("SUCCEEDED or FAILED: concluded as by POST /v1/sandbox/payments/{id}/complete; EXPIRE: left to expire at expiresAt."),
    delayMs: Delay.default(0),
    failureCode: FailureCode.optional().describe(`${RuleFailureCode} Leave it out for a failure without a code.`),
  })
  .superRefine((rule, ctx) => {
    if (rule.failureCode !== undefined && rule.outcome !== "FAILED") {
      ctx.addIssue({ code: "custom", path: ["failureCode"], message: failureCodeOnlyWithFailed(rule.outcome) });
    }
  })
  .describe("A new scenario rule.");
export type CreateScenarioRule = z.infer<typeof CreateScenarioRule>;

/** `PATCH /v1/sandbox/scenario-rules/{id}` body: the members to change. */
export const UpdateScenarioRule = z
  .strictObject({
    name: Name.optional(),
    enabled: z.boolean().optional().describe("Switch the rule on or off."),
    position: z.int().min(1).max(1000).optional().describe("Order among the merchant's rules (the first enabled match wins)."),
    match: ScenarioMatch.optional().describe("A new match, replacing the whole match."),
    outcome: ScenarioOutcome.optional().describe("SUCCEEDED, FAILED or EXPIRE."),
    delayMs: Delay.optional(),
    failureCode: FailureCode.nullable()
      .optional()
      .describe(`${RuleFailureCode} null removes it (needed when outcome changes from FAILED while the rule has one).`),
  })
  .refine((u) => Object.keys(u).length > 0, {
    message: "give at least one member to change: name, enabled, position, match, outcome, delayMs or failureCode",
  })
  .superRefine((u, ctx) => {
    if (u.failureCode && u.outcome !== undefined && u.outcome !== "FAILED") {
      ctx.addIssue({ code: "custom", path: ["failureCode"], message: failureCodeOnlyWithFailed(u.outcome) });
    }
  })
  .describe("The members of a scenario rule to change; the others keep their values.");
export type UpdateScenarioRule = z.infer<typeof UpdateScenarioRule>;

/** A scenario rule as the API answers it. */
export const ScenarioRule = z
  .strictObject({
    id: z.uuid().describe("Rule id."),
    name: z.string().describe("The rule's name."),
    enabled: z.boolean().describe("Whether the rule applies to new payments."),
    position: z.int().describe("Order among the merchant's rules: the first enabled match wins."),
    match: z
      .strictObject({
        amount: Amount.nullable().describe("Exact amount, decimal text in the payment's currency (any currency), or null."),
        referencePrefix: z.string().nullable().describe("Reference prefix, or null."),
        method: MatchMembers.method.nullable().describe("Only this method, or null for any."),
        direction: MatchMembers.direction.nullable().describe("Only this direction, or null for any."),
        currency: CurrencyText.nullable().describe("Only this currency, or null for any."),
      })
      .describe("What the rule matches."),
    outcome: ScenarioOutcome.describe("SUCCEEDED, FAILED or EXPIRE."),
    delayMs: z.int().describe("Delay in milliseconds before the conclusion."),
    failureCode: FailureCode.optional().describe("The failure code of a FAILED rule; present only when the rule has one."),
    createdAt: Timestamp.describe("Creation time (ISO 8601, UTC)."),
    updatedAt: Timestamp.describe("Last change (ISO 8601, UTC)."),
  })
  .describe("A sandbox scenario rule: new payments it matches are concluded automatically.");
export type ScenarioRuleResource = z.infer<typeof ScenarioRule>;

/** `GET /v1/sandbox/scenario-rules` answer: every rule of the merchant in position order, as one page. */
export const ScenarioRuleList = z
  .strictObject({
    items: z.array(ScenarioRule).describe("The merchant's rules, by position."),
    total: z.int().min(0).describe("Number of rules."),
    page: z.int().min(1).describe("Always 1: every rule is on one page."),
    limit: z.int().min(1).describe("The most rules a merchant may have (100)."),
    pages: z.int().min(0).describe("0 or 1."),
  })
  .describe("The merchant's scenario rules.");

/** `DELETE /v1/sandbox/scenario-rules/{id}` answer. */
export const DeletedScenarioRule = z
  .strictObject({ id: z.uuid().describe("The deleted rule's id."), deleted: z.literal(true).describe("Always true.") })
  .describe("The rule is gone from the list and from matching; payments it already matched keep their conclusion. Deleting it again answers the same.");

/** The `scenario` member of a payment a rule matched (docs/api.md "Scenario rules"). */
export const PaymentScenario = z
  .strictObject({
    ruleId: z.uuid().describe("The rule that matched (also after it was deleted)."),
    name: z.string().describe("The rule's name when it matched."),
    outcome: ScenarioOutcome.describe("What the rule does: SUCCEEDED, FAILED or EXPIRE."),
    failureCode: FailureCode.optional().describe("The failure code the rule fails the payment with; present only when the rule had one."),
    dueAt: Timestamp.nullable().describe("When the conclusion is due (EXPIRE: the payment's expiresAt); null while a withdrawal awaits approval."),
    concludedAt: Timestamp.nullable().describe(
      "When the rule concluded the payment; null before, for EXPIRE, and when the payment was concluded otherwise first.",
    ),
  })
  .describe("The scenario rule that matched this payment at creation. Present only on payments a rule matched.");
export type PaymentScenario = z.infer<typeof PaymentScenario>;
