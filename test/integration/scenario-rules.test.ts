import { describe, expect, it } from "vitest";
import { keyDisplayPrefix } from "@/lib/domain/keys/api-keys";
import { listAudit, writeAudit } from "@/lib/domain/audit";
import { transaction } from "@/lib/platform/db";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { approveWithdrawal } from "@/lib/domain/payments/approve";
import { db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { systemNow } from "@/lib/platform/clock";
import { present } from "../../scripts/harness/present";

// docs/api.md "Scenario rules" over real HTTP against the built service: a rule concludes a matching new payment
// through the manual completion's service (same status, ledger entry, event and delivery), writes an audit row, and
// leaves non-matching payments, disabled rules and other merchants alone. The service's conclusion job polls every
// second.

const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];

async function addRule(m: TestMerchant, body: Record<string, unknown>) {
  const res = await m.api("/v1/sandbox/scenario-rules", { body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** What a concluded payment left behind: status, ledger entries, events and their deliveries, scenario audit rows. */
async function trail(paymentId: string) {
  const payment = await db.payment.findUniqueOrThrow({ where: { id: paymentId } });
  const events = await db.event.findMany({ where: { paymentId } });
  return {
    status: payment.status,
    ledgerEntries: await db.ledgerEntry.count({ where: { paymentId } }),
    events: events.map((e) => e.type),
    deliveries: await db.delivery.count({ where: { eventId: { in: events.map((e) => e.id) } } }),
    audit: await db.auditLog.count({ where: { entityId: paymentId, action: "payment.scenario_conclude" } }),
  };
}

const statusOf = async (m: TestMerchant, id: string) => (await m.api(`/v1/payments/${id}`)).body.status as string;

describe("scenario rules: the API", () => {
  it("creates rules off by default, lists them by position, changes and deletes them, audited; another merchant's id is 404", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const rule = await addRule(m, { name: "Amount 13.13 fails", match: { amount: "13.13" }, outcome: "FAILED" });
    expect(rule).toMatchObject({
      enabled: false,
      position: 1,
      delayMs: 0,
      match: { amount: "13.13", referencePrefix: null, method: null, direction: null, currency: null },
    });
    const second = await addRule(m, { name: "slow", enabled: true, match: { referencePrefix: "slow-", currency: "USD" }, outcome: "SUCCEEDED", delayMs: 1500 });
    expect(second.position).toBe(2);

    const list = await m.api("/v1/sandbox/scenario-rules");
    expect(list.body).toMatchObject({ total: 2, page: 1, pages: 1 });
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([rule.id, second.id]);
    expect((await other.api("/v1/sandbox/scenario-rules")).body.total).toBe(0);

    // Clear errors: a match with neither amount nor prefix, a delay over an hour, an empty change.
    const noMatch = await m.api("/v1/sandbox/scenario-rules", { body: { name: "x", match: { currency: "USD" }, outcome: "FAILED" } });
    expect(errorOf(noMatch)).toEqual([400, "VALIDATION_ERROR"]);
    expect(noMatch.body.error.message).toMatch(/amount or referencePrefix/);
    expect(
      errorOf(await m.api("/v1/sandbox/scenario-rules", { body: { name: "x", match: { amount: "1.00" }, outcome: "FAILED", delayMs: 3_600_001 } })),
    ).toEqual([400, "VALIDATION_ERROR"]);
    // An amount of zero matches no payment: refused, with the member named.
    for (const amount of ["0.00", "0", "00.0"]) {
      const zero = await m.api("/v1/sandbox/scenario-rules", { body: { name: "x", match: { amount }, outcome: "FAILED" } });
      expect(errorOf(zero)).toEqual([400, "VALIDATION_ERROR"]);
      expect(zero.body.error.message).toMatch(/amount.*above zero/);
    }
    expect(errorOf(await m.api(`/v1/sandbox/scenario-rules/${rule.id}`, { method: "PATCH", body: {} }))).toEqual([400, "VALIDATION_ERROR"]);

    const enabled = await m.api(`/v1/sandbox/scenario-rules/${rule.id}`, { method: "PATCH", body: { enabled: true } });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ id: rule.id, enabled: true, name: "Amount 13.13 fails" });
    expect(errorOf(await other.api(`/v1/sandbox/scenario-rules/${rule.id}`, { method: "PATCH", body: { enabled: false } }))).toEqual([404, "NOT_FOUND"]);
    expect(errorOf(await other.api(`/v1/sandbox/scenario-rules/${rule.id}`, { method: "DELETE" }))).toEqual([404, "NOT_FOUND"]);

    const deleted = await m.api(`/v1/sandbox/scenario-rules/${second.id}`, { method: "DELETE" });
    expect([deleted.status, deleted.body]).toEqual([200, { id: second.id, deleted: true }]);
    // Deleting it again answers the same and writes nothing; it can no longer be changed.
    expect((await m.api(`/v1/sandbox/scenario-rules/${second.id}`, { method: "DELETE" })).body).toEqual({ id: second.id, deleted: true });
    expect(errorOf(await m.api(`/v1/sandbox/scenario-rules/${second.id}`, { method: "PATCH", body: { enabled: true } }))).toEqual([404, "NOT_FOUND"]);
    expect((await m.api("/v1/sandbox/scenario-rules")).body.total).toBe(1);

    const audit = await db.auditLog.findMany({ where: { merchantId: m.merchant.id, entity: "scenario_rule" }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["scenario_rule.create", "scenario_rule.create", "scenario_rule.update", "scenario_rule.delete"]);
    expect(present(audit?.[0], "audit?.[0]").actorName, "named by the prefix the keys page shows").toBe(`api key ${keyDisplayPrefix(m.key)}…`);
    // A row written before keys were named by prefix ("api key <id>") is listed by the prefix too.
    await writeAudit(
      db,
      { id: m.owner.id, username: `api key ${m.keyId}` },
      { action: "scenario_rule.create", entity: "scenario_rule", entityId: m.merchant.id, merchantId: m.merchant.id },
    );
    const listed = await listAudit(db, { page: 1, limit: 10, merchantId: m.merchant.id, action: "scenario_rule." });
    expect(listed.items.map((r) => r.actorName)).toEqual(Array(5).fill(`api key ${keyDisplayPrefix(m.key)}…`));

    // An Idempotency-Key replays the first answer; no second rule.
    const key = `rule-${Date.now()}`;
    const a = await m.api("/v1/sandbox/scenario-rules", { body: { name: "once", match: { amount: "2.00" }, outcome: "FAILED" }, idempotencyKey: key });
    const b = await m.api("/v1/sandbox/scenario-rules", { body: { name: "once", match: { amount: "2.00" }, outcome: "FAILED" }, idempotencyKey: key });
    expect(b.headers.get("idempotency-replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
    expect((await m.api("/v1/sandbox/scenario-rules")).body.total).toBe(2);
  });

  it("the standard set is added once, enabled", async () => {
    const m = await newMerchant();
    const first = await m.api("/v1/sandbox/scenario-rules/standard", { method: "POST" });
    expect(first.status, first.text).toBe(200);
    expect(first.body.items.map((r: { name: string }) => r.name)).toContain("Amount 13.13 fails");
    expect(first.body.items.every((r: { enabled: boolean }) => r.enabled)).toBe(true);
    const again = await m.api("/v1/sandbox/scenario-rules/standard", { method: "POST" });
    expect(again.body.total).toBe(first.body.total);
  });
});

/**
 * Proves the conclusion job ran after this point: a payment matching the sentinel rule (amount 12.12, FAILED, no
 * delay) made now is FAILED once the job has passed it. A check that something did NOT happen waits for this, never
 * for a fixed time (a sleep would pass if the job never ran).
 */
async function conclusionJobPassed(m: TestMerchant): Promise<void> {
  if (!(await db.scenarioRule.findFirst({ where: { merchantId: m.merchant.id, name: "sentinel" } }))) {
    await addRule(m, { name: "sentinel", enabled: true, match: { amount: "12.12" }, outcome: "FAILED" });
  }
  const sentinel = (await m.api("/v1/payments", { body: depositBody({ amount: "12.12" }) })).body;
  await eventually(async () => (await statusOf(m, sentinel.id)) === "FAILED");
}

describe("scenario rules: concluding payments", () => {
  it("a FAILED rule fails a matching payment as a manual completion would: status, no ledger entry, event, delivery, audit row", async () => {
    const m = await newMerchant();
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: "http://127.0.0.1:9/callbacks" });
    const rule = await addRule(m, { name: "13.13 fails", enabled: true, match: { amount: "13.13" }, outcome: "FAILED" });
    const created = await m.api("/v1/payments", { body: depositBody({ amount: "13.13", currency: "EUR" }) });
    expect(created.status, created.text).toBe(201);
    expect(created.body.status).toBe("PENDING");
    expect(created.body.scenario).toMatchObject({ ruleId: rule.id, name: "13.13 fails", outcome: "FAILED", concludedAt: null });
    await eventually(async () => (await statusOf(m, created.body.id)) === "FAILED");
    expect(await trail(created.body.id)).toEqual({ status: "FAILED", ledgerEntries: 0, events: ["payment.failed"], deliveries: 1, audit: 1 });
    const read = await m.api(`/v1/payments/${created.body.id}`);
    expect(read.body.scenario).toMatchObject({ ruleId: rule.id, name: "13.13 fails", outcome: "FAILED", concludedAt: expect.any(String) });

    // The same as a manual completion of a payment no rule matched.
    const manual = (await m.api("/v1/payments", { body: depositBody({ amount: "13.14", currency: "EUR" }) })).body;
    expect(manual).not.toHaveProperty("scenario");
    expect((await m.api(`/v1/sandbox/payments/${manual.id}/complete`, { body: { outcome: "FAILED" } })).status).toBe(200);
    expect({ ...(await trail(manual.id)), audit: 1 }).toEqual(await trail(created.body.id));
    expect((await m.api(`/v1/payments/${manual.id}`)).body).not.toHaveProperty("scenario");
  });

  it("a SUCCEEDED rule with a delay concludes after it, with the ledger entry; EXPIRE leaves the payment pending", async () => {
    const m = await newMerchant();
    await addRule(m, { name: "slow ok", enabled: true, match: { referencePrefix: "slow-" }, outcome: "SUCCEEDED", delayMs: 2000 });
    await addRule(m, { name: "expire", enabled: true, match: { amount: "14.14" }, outcome: "EXPIRE" });
    const started = Date.now();
    const slow = (await m.api("/v1/payments", { body: depositBody({ reference: `slow-${Date.now()}` }) })).body;
    expect(Date.parse(slow.scenario.dueAt) - Date.parse(slow.createdAt)).toBe(2000);
    const expiring = (await m.api("/v1/payments", { body: depositBody({ amount: "14.14" }) })).body;
    expect(expiring.scenario).toMatchObject({ outcome: "EXPIRE", dueAt: expiring.expiresAt });

    await eventually(async () => (await statusOf(m, slow.id)) === "SUCCEEDED");
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    // Concluded at its due time, not before.
    const concluded = (await m.api(`/v1/payments/${slow.id}`)).body.scenario;
    expect(Date.parse(concluded.concludedAt)).toBeGreaterThanOrEqual(Date.parse(concluded.dueAt));
    expect(await trail(slow.id)).toMatchObject({ status: "SUCCEEDED", ledgerEntries: 1, events: ["payment.succeeded"], audit: 1 });
    await conclusionJobPassed(m);
    expect(await trail(expiring.id)).toEqual({ status: "PENDING", ledgerEntries: 0, events: [], deliveries: 0, audit: 0 });
  });

  it("non-matching payments, disabled rules, narrowed rules and another merchant's payments are untouched", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    await addRule(m, { name: "off", match: { amount: "13.13" }, outcome: "FAILED" });
    await addRule(m, { name: "eur only", enabled: true, match: { referencePrefix: "fail-", currency: "EUR" }, outcome: "FAILED" });
    const disabled = (await m.api("/v1/payments", { body: depositBody({ amount: "13.13" }) })).body;
    const otherCurrency = (await m.api("/v1/payments", { body: depositBody({ reference: `fail-${Date.now()}`, currency: "USD" }) })).body;
    const plain = (await m.api("/v1/payments", { body: depositBody() })).body;
    const otherMerchant = (await other.api("/v1/payments", { body: depositBody({ reference: `fail-${Date.now()}`, currency: "EUR", amount: "13.13" }) })).body;
    for (const p of [disabled, otherCurrency, plain, otherMerchant]) expect(p).not.toHaveProperty("scenario");
    // A matching one in the same wait shows the job ran.
    const matched = (await m.api("/v1/payments", { body: depositBody({ reference: `fail-${Date.now()}`, currency: "EUR" }) })).body;
    await eventually(async () => (await statusOf(m, matched.id)) === "FAILED");
    expect(await statusOf(m, disabled.id)).toBe("PENDING");
    expect(await statusOf(m, otherCurrency.id)).toBe("PENDING");
    expect(await statusOf(m, plain.id)).toBe("PENDING");
    expect(await statusOf(other, otherMerchant.id)).toBe("PENDING");
    expect(await db.scenarioConclusion.count({ where: { paymentId: { in: [disabled.id, otherCurrency.id, plain.id, otherMerchant.id] } } })).toBe(0);
  });

  it("a manual completion before the due time wins: the rule's conclusion is skipped without a second event", async () => {
    const m = await newMerchant();
    await addRule(m, { name: "fails later", enabled: true, match: { amount: "13.13" }, outcome: "FAILED", delayMs: 1500 });
    const p = (await m.api("/v1/payments", { body: depositBody({ amount: "13.13" }) })).body;
    expect((await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
    await eventually(async () => (await db.scenarioConclusion.findUniqueOrThrow({ where: { paymentId: p.id } })).doneAt !== null);
    expect(await db.scenarioConclusion.findUniqueOrThrow({ where: { paymentId: p.id } })).toMatchObject({ result: "SKIPPED" });
    expect(await trail(p.id)).toEqual({ status: "SUCCEEDED", ledgerEntries: 1, events: ["payment.succeeded"], deliveries: 1, audit: 0 });
    expect((await m.api(`/v1/payments/${p.id}`)).body.scenario).toMatchObject({ outcome: "FAILED", concludedAt: null });
  });

  it("a withdrawal's delay counts from approval", async () => {
    const m = await newMerchant();
    await addRule(m, { name: "withdrawals fail", enabled: true, match: { referencePrefix: "wd-", direction: "WITHDRAWAL" }, outcome: "FAILED", delayMs: 0 });
    const w = (
      await m.api("/v1/payments", { body: depositBody({ reference: `wd-${Date.now()}`, method: "BANK_TRANSFER", direction: "WITHDRAWAL", amount: "50.00" }) })
    ).body;
    expect(w.status).toBe("PENDING_APPROVAL");
    expect(w.scenario).toMatchObject({ outcome: "FAILED", dueAt: null });
    await conclusionJobPassed(m);
    expect(await statusOf(m, w.id)).toBe("PENDING_APPROVAL");
    await transaction((tx) =>
      approveWithdrawal(tx, { paymentId: w.id, approver: { id: m.approver.id, role: "MERCHANT", merchantId: m.merchant.id }, now: systemNow() }),
    );
    await eventually(async () => (await statusOf(m, w.id)) === "FAILED");
    expect(await trail(w.id)).toMatchObject({ status: "FAILED", ledgerEntries: 0, events: ["payment.failed"], audit: 1 });
  });

  it("due times are the merchant's sandbox time: advancing the clock past a rule's delay concludes the payment", async () => {
    const m = await newMerchant();
    // 20 minutes: within a gateway deposit's 30-minute acceptance period.
    await addRule(m, { name: "fails in 20 min", enabled: true, match: { amount: "13.13" }, outcome: "FAILED", delayMs: 1_200_000 });
    const p = (await m.api("/v1/payments", { body: depositBody({ amount: "13.13" }) })).body;
    await conclusionJobPassed(m);
    expect(await statusOf(m, p.id)).toBe("PENDING");
    expect((await m.api("/v1/sandbox/clock/advance", { body: { by: "19m" } })).status).toBe(200);
    await conclusionJobPassed(m);
    expect(await statusOf(m, p.id)).toBe("PENDING");
    expect((await m.api("/v1/sandbox/clock/advance", { body: { by: "2m" } })).status).toBe(200);
    await eventually(async () => (await statusOf(m, p.id)) === "FAILED");
    expect(await trail(p.id)).toMatchObject({ status: "FAILED", ledgerEntries: 0, events: ["payment.failed"], audit: 1 });
  });
});
