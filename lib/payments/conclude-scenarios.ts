// The scenario conclusion job (docs/api.md "Scenario rules"): concludes due payments through the service of
// POST /v1/sandbox/payments/{id}/complete, so transitions, ledger entries, events and deliveries are a manual
// completion's.
import { writeAudit, type AuditActor } from "@/lib/audit";
import { sandboxNow, systemNow } from "@/lib/clock";
import { transaction } from "@/lib/db";
import { completePayment } from "@/lib/payments/complete";
import { lockPayment } from "@/lib/payments/transitions";

/** The audit actor of automatic conclusions. */
export const SCENARIO_ACTOR: AuditActor = { id: null, username: "scenario rule" };

/**
 * Job body: claims due conclusions (SUCCEEDED or FAILED, due_at passed, not done) with FOR UPDATE SKIP LOCKED and
 * concludes each payment with `completePayment`; one audit row `payment.scenario_conclude` per payment concluded. A
 * payment no longer PENDING (concluded by hand, expired) or past its expiresAt (the expiry sweep ends it) is
 * skipped: its conclusion is marked done with result SKIPPED, no error. Due times are the merchant's sandbox time
 * (docs/api.md "Sandbox clock"): a conclusion is due once `due_at` has passed at the real time plus the merchant's
 * clock offset, and the payment is concluded at that sandbox time.
 * @returns how many payments were concluded and skipped
 */
export async function concludeDueScenarios(opts: { now?: Date; batchSize?: number } = {}): Promise<{ concluded: number; skipped: number }> {
  const now = opts.now ?? systemNow();
  const batchSize = opts.batchSize ?? 50;
  const totals = { concluded: 0, skipped: 0 };
  for (;;) {
    const claimed = await transaction(async (tx) => {
      const due = await tx.$queryRaw<{ payment_id: string; merchant_id: string; rule_id: string; rule_name: string; outcome: "SUCCEEDED" | "FAILED"; offset_ms: bigint }[]>`
        SELECT c.payment_id, c.merchant_id, c.rule_id, c.rule_name, c.outcome, m.clock_offset_ms AS offset_ms
        FROM scenario_conclusions c JOIN merchants m ON m.id = c.merchant_id
        WHERE c.done_at IS NULL AND c.due_at IS NOT NULL AND c.outcome IN ('SUCCEEDED', 'FAILED')
          AND c.due_at <= ${now}::timestamptz + m.clock_offset_ms * interval '1 millisecond'
        ORDER BY c.due_at LIMIT ${batchSize} FOR UPDATE OF c SKIP LOCKED`;
      for (const c of due) {
        const at = sandboxNow(c.offset_ms, now);
        const payment = await lockPayment(tx, c.merchant_id, c.payment_id);
        const live = payment.status === "PENDING" && !(payment.expiresAt && payment.expiresAt <= at);
        if (live) {
          await completePayment(tx, { merchantId: c.merchant_id, paymentId: c.payment_id, outcome: c.outcome, now: at });
          await writeAudit(tx, SCENARIO_ACTOR, {
            action: "payment.scenario_conclude",
            entity: "payment",
            entityId: c.payment_id,
            merchantId: c.merchant_id,
            before: { status: payment.status },
            after: { status: c.outcome, ruleId: c.rule_id, ruleName: c.rule_name },
          }, at);
        }
        await tx.scenarioConclusion.update({ where: { paymentId: c.payment_id }, data: { doneAt: at, result: live ? "CONCLUDED" : "SKIPPED" } });
        totals[live ? "concluded" : "skipped"] += 1;
      }
      return due.length;
    });
    if (claimed < batchSize) return totals;
  }
}
