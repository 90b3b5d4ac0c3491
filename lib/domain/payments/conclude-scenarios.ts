// The scenario conclusion job (docs/api.md "Scenario rules"): concludes due payments through the service of
// POST /v1/sandbox/payments/{id}/complete, so transitions, ledger entries, events and deliveries are a manual
// completion's.
import { writeAudit, type AuditActor } from "@/lib/domain/audit";
import { sandboxNow, systemNow, type RealInstant } from "@/lib/platform/clock";
import { yieldToRequests } from "@/lib/platform/background";
import { z } from "zod";
import { parseRow, transaction } from "@/lib/platform/db";
import { completePayment } from "@/lib/domain/payments/complete";
import { lockPayment } from "@/lib/domain/payments/transitions";
import { FailureCode } from "@/lib/contract/schemas/api/failure-codes";

/** The audit actor of automatic conclusions. */
export const SCENARIO_ACTOR: AuditActor = { id: null, username: "scenario rule" };

/** A due conclusion as {@link concludeDueScenarios} claims it, with its merchant's sandbox clock offset (ms). */
const DueConclusion = z.object({
  paymentId: z.string(),
  merchantId: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  outcome: z.enum(["SUCCEEDED", "FAILED"]),
  failureCode: FailureCode.nullable(),
  offsetMs: z.bigint(),
});

/**
 * Job body: claims due conclusions (SUCCEEDED or FAILED, due_at passed, not done) with FOR UPDATE SKIP LOCKED and
 * concludes each payment with `completePayment`, with the rule's failure code when it had one (docs/api.md "Failure
 * codes"); one audit row `payment.scenario_conclude` per payment concluded. A
 * payment no longer PENDING (concluded by hand, expired) or past its expiresAt (the expiry sweep ends it) is
 * skipped: its conclusion is marked done with result SKIPPED, no error. Due times are the merchant's sandbox time
 * (docs/api.md "Sandbox clock"): a conclusion is due once `due_at` has passed at the real time plus the merchant's
 * clock offset, and the payment is concluded at that sandbox time.
 * @returns how many payments were concluded and skipped
 * @throws ZodError when a claimed row does not match its schema (a stored failure code not in the table: the batch
 *   is rolled back)
 */
export async function concludeDueScenarios(opts: { now?: RealInstant; batchSize?: number } = {}): Promise<{ concluded: number; skipped: number }> {
  const now = opts.now ?? systemNow();
  const batchSize = opts.batchSize ?? 50;
  const totals = { concluded: 0, skipped: 0 };
  for (;;) {
    const started = performance.now();
    const claimed = await transaction(async (tx) => {
      const rows = await tx.$queryRaw<Record<string, unknown>[]>`
        SELECT c.payment_id, c.merchant_id, c.rule_id, c.rule_name, c.outcome, c.failure_code, m.clock_offset_ms AS offset_ms
        FROM scenario_conclusions c JOIN merchants m ON m.id = c.merchant_id
        WHERE c.done_at IS NULL AND c.due_at IS NOT NULL AND c.outcome IN ('SUCCEEDED', 'FAILED')
          AND c.due_at <= ${now}::timestamptz + m.clock_offset_ms * interval '1 millisecond'
        ORDER BY c.due_at LIMIT ${batchSize} FOR UPDATE OF c SKIP LOCKED`;
      const due = rows.map((r) => parseRow(DueConclusion, r));
      for (const c of due) {
        const at = sandboxNow(c.offsetMs, now);
        const payment = await lockPayment(tx, c.merchantId, c.paymentId);
        const live = payment.status === "PENDING" && !(payment.expiresAt && payment.expiresAt <= at);
        if (live) {
          const failureCode = c.failureCode ?? undefined;
          await completePayment(tx, { merchantId: c.merchantId, paymentId: c.paymentId, outcome: c.outcome, failureCode, now: at });
          await writeAudit(
            tx,
            SCENARIO_ACTOR,
            {
              action: "payment.scenario_conclude",
              entity: "payment",
              entityId: c.paymentId,
              merchantId: c.merchantId,
              before: { status: payment.status },
              after: { status: c.outcome, ...(failureCode ? { failureCode } : {}), ruleId: c.ruleId, ruleName: c.ruleName },
            },
            at,
          );
        }
        await tx.scenarioConclusion.update({ where: { paymentId: c.paymentId }, data: { doneAt: at, result: live ? "CONCLUDED" : "SKIPPED" } });
        totals[live ? "concluded" : "skipped"] += 1;
      }
      return due.length;
    });
    if (claimed < batchSize) return totals;
    await yieldToRequests(started);
  }
}
