import { systemNow, type RealInstant } from "@/lib/platform/clock";
import { realTimeText, type RealTimeText } from "@/lib/platform/time-format";
import { auditActor, merchantScope, scopedMerchantId, type ConsoleActor } from "@/lib/domain/auth/actor";
import { writeAudit } from "@/lib/domain/audit";
import type { Db, Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { fromMinor } from "@/lib/contract/money/currency";
import { approvalRefusal, approveWithdrawal } from "@/lib/domain/payments/approve";
import { listPayments } from "@/lib/domain/payments/read";
import { serializePayment, type PaymentResource, type PaymentRow } from "@/lib/domain/payments/serialize";
import { FINAL_STATUSES } from "@/lib/domain/payments/transitions";
import type { ListPaymentsQuery } from "@/lib/contract/schemas/api/payments";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { pageOf } from "@/lib/contract/pagination";
import { readPaymentScenario } from "@/lib/domain/scenarios/match";

/**
 * One payment as a console list row (JSON-safe; amounts as decimal text), with `recordedAt`, the real time its row was
 * written (ISO text; null for payments from before it was kept): under a moved sandbox clock `createdAt` is the
 * sandbox time (docs/operating.md "Times in the console").
 */
export type PaymentListItem = PaymentResource & { merchantName: string; recordedAt: string | null };

/**
 * A page of payments visible to the actor (MERCHANT: its own merchant only, whatever is asked; OPERATOR: all
 * merchants or the one asked for), newest first in the order they were written (the real clock, not a sandbox
 * clock's), with `open` true while any row can still change state.
 */
export async function listConsolePayments(db: Db, actor: ConsoleActor, q: ListPaymentsQuery, merchant?: string) {
  const page = await listPayments(db, scopedMerchantId(actor, merchant), q, "recorded");
  const names = await merchantNames(
    db,
    page.items.map((r) => r.merchantId),
  );
  const items: PaymentListItem[] = page.items.map((r) => ({
    ...serializePayment(r, { detail: false }),
    merchantName: names.get(r.merchantId) ?? "",
    recordedAt: r.recordedAt?.toISOString() ?? null,
  }));
  return { ...pageOf(items, page.total, page), open: items.some((i) => !isFinal(i.status)) };
}

async function merchantNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await db.merchant.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, name: true } });
  return new Map(rows.map((r) => [r.id, r.name]));
}

function isFinal(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

/** The payment detail the console shows and polls (JSON-safe). */
export type PaymentView = {
  /** `recordedAt`: the real time the payment's row was written (ISO text; null for payments from before it was kept). */
  payment: PaymentResource & { description: string | null; createdBy: string | null; approvedBy: string | null; recordedAt: RealTimeText | null };
  merchantName: string;
  /** null when the actor may approve; otherwise why not (also set for payments that are not withdrawals). */
  approvalRefusal: string | null;
  isWithdrawalAwaitingApproval: boolean;
  /** Ledger entries keep the real clock; events carry the merchant's clock, their deliveries the real one. */
  ledger: { id: string; kind: string; createdAt: RealTimeText; lines: { account: string; currency: string; amount: string }[] }[];
  events: {
    id: string;
    type: string;
    createdAt: string;
    delivery: {
      id: string;
      state: string;
      attemptCount: number;
      nextAttemptAt: RealTimeText | null;
      lastError: string | null;
      deliveredAt: RealTimeText | null;
      attempts: { number: number; startedAt: RealTimeText; durationMs: number; statusCode: number | null; error: string | null }[];
    } | null;
  }[];
  /** True while the page should keep polling (state or a delivery can still change). */
  open: boolean;
};

/**
 * One payment as the actor may see it: pricing snapshot, ledger entries with lines, events with their
 * delivery and attempts, the scenario rule that matched it (docs/api.md "Scenario rules"), and whether the actor
 * may approve it.
 * @throws ApiError 404 NOT_FOUND for a malformed or unknown id, or another merchant's payment for a MERCHANT user.
 */
export async function getPaymentView(db: Db, actor: ConsoleActor, id: string, now = systemNow()): Promise<PaymentView> {
  const scope = merchantScope(actor);
  const payment = isUuid(id)
    ? await db.payment.findFirst({
        where: { id, ...(scope ? { merchantId: scope } : {}) },
        include: {
          storeCheckout: true,
          merchant: { select: { name: true } },
          ledgerEntries: { include: { lines: true }, orderBy: { createdAt: "asc" } },
          events: {
            include: { deliveries: { include: { attempts: { orderBy: { number: "asc" } } }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 1 } },
            orderBy: { createdAt: "asc" },
          },
        },
      })
    : null;
  if (!payment) throw apiError("NOT_FOUND", "payment not found");
  const people = await db.consoleUser.findMany({
    where: { id: { in: [payment.createdById, payment.approvedById].filter((x): x is string => !!x) } },
    select: { id: true, username: true },
  });
  const nameOf = (uid: string | null) => (uid ? (people.find((p) => p.id === uid)?.username ?? null) : null);
  // Each event with its latest delivery (the first one, or the newest redelivery).
  const events = payment.events.map(({ deliveries: [latest], ...e }) => ({
    id: e.id,
    type: e.type,
    createdAt: e.createdAt.toISOString(),
    delivery: latest
      ? {
          id: latest.id,
          state: latest.state,
          attemptCount: latest.attemptCount,
          nextAttemptAt: latest.nextAttemptAt ? realTimeText(latest.nextAttemptAt) : null,
          lastError: latest.lastError,
          deliveredAt: latest.deliveredAt ? realTimeText(latest.deliveredAt) : null,
          attempts: latest.attempts.map((a) => ({
            number: a.number,
            startedAt: realTimeText(a.startedAt),
            durationMs: a.durationMs,
            statusCode: a.statusCode,
            error: a.error,
          })),
        }
      : null,
  }));
  const scenario = await readPaymentScenario(db, payment.id, payment.expiresAt);
  const resource = serializePayment({ ...payment, scenario }, { detail: true });
  // The store checkout url is a bearer link (docs/api.md "Store checkout"); the console shows its state, never the link.
  if (resource.checkout) resource.checkout = { ...resource.checkout, url: null };
  const awaiting = payment.direction === "WITHDRAWAL" && payment.status === "PENDING_APPROVAL";
  return {
    payment: {
      ...resource,
      description: payment.description,
      createdBy: nameOf(payment.createdById),
      approvedBy: nameOf(payment.approvedById),
      recordedAt: payment.recordedAt ? realTimeText(payment.recordedAt) : null,
    },
    merchantName: payment.merchant.name,
    approvalRefusal: awaiting ? approvalRefusal(payment, actor, now) : "only withdrawals awaiting approval can be approved",
    isWithdrawalAwaitingApproval: awaiting,
    ledger: payment.ledgerEntries.map((l) => ({
      id: l.id,
      kind: l.kind,
      createdAt: realTimeText(l.createdAt),
      lines: l.lines.map((line) => ({ account: line.account, currency: line.currency, amount: fromMinor(line.amountMinor) })),
    })),
    events,
    open: !isFinal(payment.status) || events.some((e) => e.delivery?.state === "PENDING"),
  };
}

/** The withdrawals awaiting approval that the actor may see: the approval queue, its badge and the overview. */
function awaitingApprovalWhere(actor: ConsoleActor) {
  const merchantId = scopedMerchantId(actor);
  return { ...(merchantId ? { merchantId } : {}), status: "PENDING_APPROVAL", direction: "WITHDRAWAL" } as const;
}

/** How many withdrawals await approval among those the actor may see (the navigation badge and the overview). */
export function countAwaitingApproval(db: Db, actor: ConsoleActor): Promise<number> {
  return db.payment.count({ where: awaitingApprovalWhere(actor) });
}

/** A withdrawal in the approval queue, with the actor's refusal reason (null = may approve). */
export type ApprovalItem = PaymentListItem & { createdBy: string | null; refusal: string | null };

/**
 * The approval queue: PENDING_APPROVAL withdrawals visible to the actor, oldest deadline
 * first, each with the reason the actor cannot approve it (creator, approval period ended) or null.
 */
export async function approvalQueue(db: Db, actor: ConsoleActor, page: number, limit = 20, now = systemNow()) {
  const where = awaitingApprovalWhere(actor);
  const [total, rows] = await Promise.all([
    db.payment.count({ where }),
    db.payment.findMany({ where, orderBy: [{ expiresAt: "asc" }, { id: "asc" }], skip: (page - 1) * limit, take: limit }),
  ]);
  const names = await merchantNames(
    db,
    rows.map((r) => r.merchantId),
  );
  const creators = await db.consoleUser.findMany({
    where: { id: { in: rows.map((r) => r.createdById).filter((x): x is string => !!x) } },
    select: { id: true, username: true },
  });
  const items: ApprovalItem[] = rows.map((r) => ({
    ...serializePayment(r, { detail: false }),
    merchantName: names.get(r.merchantId) ?? "",
    recordedAt: r.recordedAt?.toISOString() ?? null,
    createdBy: creators.find((c) => c.id === r.createdById)?.username ?? null,
    refusal: approvalRefusal(r, actor, now),
  }));
  return pageOf(items, total, { page, limit });
}

/**
 * The withdrawal the actor just approved, for the approval page's confirmation: its reference, amount, currency,
 * status and end of the acceptance period, or null when `paymentId` is not a withdrawal the actor can see that has
 * been approved (so a crafted link never shows a false confirmation).
 */
export async function approvedWithdrawal(db: Db, actor: ConsoleActor, paymentId: string | undefined) {
  if (!paymentId || !isUuid(paymentId)) return null;
  const merchantId = scopedMerchantId(actor);
  const row = await db.payment.findFirst({
    where: { id: paymentId, direction: "WITHDRAWAL", approvedAt: { not: null }, ...(merchantId ? { merchantId } : {}) },
  });
  if (!row) return null;
  const p = serializePayment(row, { detail: false });
  return { id: p.id, reference: p.reference, amount: p.amount, currency: p.currency, status: p.status, expiresAt: p.expiresAt };
}

/**
 * Approves a withdrawal from the console (docs/api.md "Payment states": PENDING_APPROVAL -> PENDING with approvedAt) and
 * writes the audit row in the same transaction.
 * @throws ApiError 404 NOT_FOUND (not visible to the actor), 409 INVALID_STATE with the refusal reason
 *   (the actor created it, it expired, it is not awaiting approval).
 */
export async function approveFromConsole(tx: Tx, actor: ConsoleActor, input: { paymentId: string; now: RealInstant }): Promise<PaymentRow> {
  if (!isUuid(input.paymentId)) throw apiError("NOT_FOUND", "payment not found");
  const before = await tx.payment.findUnique({ where: { id: input.paymentId }, select: { status: true, approvedAt: true } });
  const approved = await approveWithdrawal(tx, { paymentId: input.paymentId, approver: actor, now: input.now });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "payment.approve",
      entity: "payment",
      entityId: approved.id,
      merchantId: approved.merchantId,
      before,
      after: { status: approved.status, approvedAt: approved.approvedAt },
    },
    input.now,
  );
  return approved;
}
