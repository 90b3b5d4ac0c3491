import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { writeAudit } from "@/lib/domain/audit";
import { assertMerchantAccess, assertOperator, auditActor, type ConsoleActor } from "@/lib/domain/auth/actor";
import { currencyField, integer, reasonField, uuidField } from "@/lib/contract/schemas/forms/fields";
import type { Db, Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import type { RiskRule } from "@/lib/platform/generated/prisma/client";
import { AMOUNT_PATTERN, fromMinor, toMinor } from "@/lib/contract/money/currency";
import { MAX_WINDOW_SECONDS, RISK_SUBJECTS, type RiskSubject } from "@/lib/domain/risk/velocity";
import { parseStored } from "@/lib/contract/schemas/stored/parse";

// A merchant's velocity rules in the console (docs/api.md "Errors": RISK_REJECTED; docs/architecture.md "Console
// roles": operators run risk). Operators add and remove rules with a reason; the merchant's users see them.
// Every change writes one audit row in the caller's transaction.

const SUBJECTS = Object.keys(RISK_SUBJECTS) as [RiskSubject, ...RiskSubject[]];

/** The console form of a new rule: window in minutes; a count, or an amount with its currency. */
/** What a rule counts: payments (COUNT) or their amounts (AMOUNT); `risk_rules.kind`. */
const RuleKind = z.enum(["COUNT", "AMOUNT"], { message: "choose what the rule counts" });
/** The customer member a rule groups by; `risk_rules.subject`. */
const RuleSubject = z.enum(SUBJECTS, { message: "choose the customer member" });

export const RiskRuleForm = z
  .object({
    merchantId: uuidField,
    kind: RuleKind,
    subject: RuleSubject,
    windowMinutes: integer(1, MAX_WINDOW_SECONDS / 60),
    maxCount: z.string().trim().optional(),
    maxAmount: z.string().trim().optional(),
    currency: z.union([currencyField, z.literal("")]).optional(),
    reason: reasonField,
  })
  .superRefine((v, ctx) => {
    if (v.kind === "COUNT" && !/^[1-9]\d{0,5}$/.test(v.maxCount ?? ""))
      ctx.addIssue({ code: "custom", path: ["maxCount"], message: "enter the most payments allowed, 1 to 999999" });
    if (v.kind === "AMOUNT") {
      const amount = v.maxAmount ?? "";
      if (!AMOUNT_PATTERN.test(amount) || toMinor(amount) <= 0n)
        ctx.addIssue({ code: "custom", path: ["maxAmount"], message: "enter the largest total, e.g. 5000.00" });
      if (!v.currency) ctx.addIssue({ code: "custom", path: ["currency"], message: "choose the currency of the total" });
    }
  });
export type RiskRuleForm = z.infer<typeof RiskRuleForm>;
export const RemoveRiskRuleForm = z.object({ merchantId: uuidField, ruleId: uuidField, reason: reasonField });

/** A rule as the console shows it (amounts as decimal text). */
export type RiskRuleView = {
  id: string;
  kind: "COUNT" | "AMOUNT";
  subject: RiskSubject;
  subjectLabel: string;
  windowSeconds: number;
  maxCount: number | null;
  maxAmount: string | null;
  currency: string | null;
  reason: string;
  createdAt: Date;
};

/**
 * A stored rule as the console shows it; kind and subject read through their schemas.
 * @throws StoredDataError naming `risk_rules.kind` or `risk_rules.subject` when the column holds another value
 */
export function riskRuleView(r: RiskRule): RiskRuleView {
  const subject = parseStored(RuleSubject, r.subject, "risk_rules.subject");
  return {
    id: r.id,
    kind: parseStored(RuleKind, r.kind, "risk_rules.kind"),
    subject,
    subjectLabel: RISK_SUBJECTS[subject].label,
    windowSeconds: r.windowSeconds,
    maxCount: r.maxCount,
    maxAmount: r.maxAmountMinor === null ? null : fromMinor(r.maxAmountMinor),
    currency: r.currency,
    reason: r.reason,
    createdAt: r.createdAt,
  };
}

/**
 * The merchant's active velocity rules, oldest first: every user of the merchant and operators see them.
 * @throws ApiError 404 NOT_FOUND (another merchant's, for a MERCHANT user)
 */
export async function listRiskRules(db: Db, actor: ConsoleActor, merchantId: string): Promise<RiskRuleView[]> {
  assertMerchantAccess(actor, merchantId, "merchant");
  const rows = await db.riskRule.findMany({ where: { merchantId, active: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(riskRuleView);
}

/**
 * Adds a velocity rule to a merchant (operators only), audited as `risk_rule.add` with its reason. It applies to
 * the next payment.
 * @throws ApiError 403 FORBIDDEN (not an operator), 404 NOT_FOUND (no such merchant)
 */
export async function addRiskRule(tx: Tx, actor: ConsoleActor, input: RiskRuleForm, now: Date): Promise<RiskRuleView> {
  assertOperator(actor);
  const merchant = await tx.merchant.findUnique({ where: { id: input.merchantId }, select: { id: true } });
  if (!merchant) throw apiError("NOT_FOUND", "merchant not found");
  const rule = await tx.riskRule.create({
    data: {
      merchantId: input.merchantId,
      kind: input.kind,
      subject: input.subject,
      windowSeconds: input.windowMinutes * 60,
      maxCount: input.kind === "COUNT" ? Number(input.maxCount) : null,
      // The form's check gave an AMOUNT rule its amount; toMinor throws on a missing one.
      maxAmountMinor: input.kind === "AMOUNT" ? toMinor(input.maxAmount ?? "") : null,
      currency: input.kind === "AMOUNT" ? input.currency : null,
      reason: input.reason,
      createdById: actor.id,
      createdAt: now,
    },
  });
  const v = riskRuleView(rule);
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "risk_rule.add",
      entity: "risk_rule",
      entityId: rule.id,
      merchantId: rule.merchantId,
      reason: input.reason,
      before: null,
      after: { kind: v.kind, subject: v.subject, windowSeconds: v.windowSeconds, maxCount: v.maxCount, maxAmount: v.maxAmount, currency: v.currency },
    },
    now,
  );
  return v;
}

/**
 * Removes (deactivates) a velocity rule (operators only), audited as `risk_rule.remove` with the reason. Its
 * counters stop mattering at once; the rule stays on record.
 * @throws ApiError 403 FORBIDDEN, 404 NOT_FOUND (no such active rule of that merchant)
 */
export async function removeRiskRule(tx: Tx, actor: ConsoleActor, input: z.infer<typeof RemoveRiskRuleForm>, now: Date): Promise<RiskRuleView> {
  assertOperator(actor);
  const changed = await tx.riskRule.updateManyAndReturn({
    where: { id: input.ruleId, merchantId: input.merchantId, active: true },
    data: { active: false, removedAt: now },
  });
  const [removed] = changed;
  if (!removed) throw apiError("NOT_FOUND", "velocity rule not found");
  const v = riskRuleView(removed);
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "risk_rule.remove",
      entity: "risk_rule",
      entityId: v.id,
      merchantId: input.merchantId,
      reason: input.reason,
      before: { active: true, kind: v.kind, subject: v.subject },
      after: { active: false },
    },
    now,
  );
  return v;
}

/**
 * Job body: deletes velocity counters whose window has ended (they can never refuse anything again), at most
 * `batch` rows per run. Returns the number deleted.
 */
export async function pruneRiskCounters(db: Db, now = systemNow(), batch = 10_000): Promise<number> {
  return db.$executeRaw`DELETE FROM risk_counters WHERE ctid IN (SELECT ctid FROM risk_counters WHERE window_end <= ${now} LIMIT ${batch})`;
}
