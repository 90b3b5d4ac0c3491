import { afterAll, describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { verifyCallback } from "@/clients/cli/src/verify";
import { FAILURE_CODE_NAMES, FAILURE_CODES } from "@/lib/contract/schemas/api/failure-codes";
import { db, depositBody, eventually, messageOf, newMerchant, type TestMerchant } from "../support/fixtures";
import { startReceiver } from "../support/receiver";
import { getWithSession, sessionOf } from "../support/console-http";
import { assertPresent, present } from "../../scripts/harness/present";

// docs/api.md "Failure codes" over real HTTP against the built service: a code named by a scenario rule or by the
// completion is on the payment's read, its list item, the payment.failed event of the Events API and the callback a
// real receiver gets; refused codes change nothing; without a code no `failure` member appears anywhere.

const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const failureOf = (code: keyof typeof FAILURE_CODES) => ({ code, message: FAILURE_CODES[code].message });
const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];

/** Everything a payment shows itself by: its read, its list item, its events' data (Events API list and detail). */
async function shapes(m: TestMerchant, id: string) {
  const read = (await m.api(`/v1/payments/${id}`)).body;
  const reference = read.reference as string;
  const listed = (await m.api(`/v1/payments?search=${encodeURIComponent(reference)}`)).body.items.find((p: { id: string }) => p.id === id);
  const events = (await m.api(`/v1/events?paymentId=${id}`)).body.items as { id: string; type: string; data: Record<string, unknown> }[];
  const details = await Promise.all(events.map(async (e) => (await m.api(`/v1/events/${e.id}`)).body));
  return { read, listed, events, details };
}

/** What a payment and its trail hold now: status, events, ledger entries, the stored code. */
async function state(id: string) {
  const payment = await db.payment.findUniqueOrThrow({ where: { id } });
  return {
    status: payment.status,
    failureCode: payment.failureCode,
    events: await db.event.count({ where: { paymentId: id } }),
    ledger: await db.ledgerEntry.count({ where: { paymentId: id } }),
  };
}

describe("failure codes: scenario rules", () => {
  it("a rule with failureCode insufficient_funds fails a payment that then shows failure on GET, in lists, in the events API and in the delivered callback", async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    const m = await newMerchant();
    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const created = await m.api("/v1/sandbox/scenario-rules", {
      body: { name: "nofunds", enabled: true, match: { referencePrefix: "nofunds-" }, outcome: "FAILED", failureCode: "insufficient_funds" },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ outcome: "FAILED", failureCode: "insufficient_funds" });
    expect((await m.api("/v1/sandbox/scenario-rules")).body.items[0]).toMatchObject({ id: created.body.id, failureCode: "insufficient_funds" });

    const p = (await m.api("/v1/payments", { body: depositBody({ reference: `nofunds-${Date.now()}` }) })).body;
    expect(p.status).toBe("PENDING");
    expect(p).not.toHaveProperty("failure");
    expect(p.scenario).toMatchObject({ ruleId: created.body.id, outcome: "FAILED", failureCode: "insufficient_funds" });
    await eventually(async () => (await m.api(`/v1/payments/${p.id}`)).body.status === "FAILED");

    const { read, listed, events, details } = await shapes(m, p.id);
    expect(read.failure).toEqual(failureOf("insufficient_funds"));
    expect(read.failure.code).toBe("insufficient_funds");
    expect(listed.failure).toEqual(failureOf("insufficient_funds"));
    expect(events.map((e) => e.type)).toEqual(["payment.failed"]);
    expect(present(events?.[0], "events?.[0]").data.failure).toEqual(failureOf("insufficient_funds"));
    expect(details[0].data.failure).toEqual(failureOf("insufficient_funds"));

    // The callback a real receiver got: signed, and its data carries the same failure.
    const [got] = await rx.waitFor(1);
    assertPresent(got, "got");
    expect(verifyCallback(got?.body, got?.headers, secret)).toMatchObject({ ok: true, eventId: present(events[0], "events[0]").id });
    const envelope = JSON.parse(got.body.toString("utf8"));
    expect(envelope).toMatchObject({ type: "payment.failed", data: { id: p.id, status: "FAILED", failure: failureOf("insufficient_funds") } });
    expect(envelope.data).toEqual({ ...read, customer: undefined, checkout: undefined, scenario: undefined });

    const audit = await db.auditLog.findFirstOrThrow({ where: { entityId: p.id, action: "payment.scenario_conclude" } });
    expect(audit.after).toMatchObject({ status: "FAILED", failureCode: "insufficient_funds" });
  });

  it("a failureCode with another outcome is refused on create and on PATCH, and changes nothing; PATCH sets, changes and removes it", async () => {
    const m = await newMerchant();
    for (const outcome of ["SUCCEEDED", "EXPIRE"]) {
      const res = await m.api("/v1/sandbox/scenario-rules", { body: { name: "x", match: { amount: "3.00" }, outcome, failureCode: "timed_out" } });
      expect(errorOf(res)).toEqual([400, "VALIDATION_ERROR"]);
      expect(messageOf(res)).toBe(`failureCode: is only for outcome FAILED; leave failureCode out with outcome ${outcome}, or send outcome FAILED`);
    }
    const unknown = await m.api("/v1/sandbox/scenario-rules", {
      body: { name: "x", match: { amount: "3.00" }, outcome: "FAILED", failureCode: "stolen_card" },
    });
    expect(errorOf(unknown)).toEqual([400, "VALIDATION_ERROR"]);
    expect(messageOf(unknown)).toContain(FAILURE_CODE_NAMES.join(", "));
    expect((await m.api("/v1/sandbox/scenario-rules")).body.total).toBe(0);

    // Without a code the rule answers as before: no failureCode member.
    const rule = (await m.api("/v1/sandbox/scenario-rules", { body: { name: "plain", match: { amount: "3.00" }, outcome: "FAILED" } })).body;
    expect(rule).not.toHaveProperty("failureCode");
    const path = `/v1/sandbox/scenario-rules/${rule.id}`;
    expect((await m.api(path, { method: "PATCH", body: { failureCode: "limit_exceeded" } })).body).toMatchObject({ failureCode: "limit_exceeded" });
    expect((await m.api(path, { method: "PATCH", body: { failureCode: "account_closed" } })).body).toMatchObject({ failureCode: "account_closed" });

    // A new outcome while the rule keeps its code: refused, the rule unchanged; with failureCode null it goes through.
    const kept = await m.api(path, { method: "PATCH", body: { outcome: "SUCCEEDED" } });
    expect(errorOf(kept)).toEqual([400, "VALIDATION_ERROR"]);
    expect(messageOf(kept)).toBe(
      'failureCode: the rule has failure code account_closed, which is only for outcome FAILED; send "failureCode": null with outcome SUCCEEDED to remove it',
    );
    const both = await m.api(path, { method: "PATCH", body: { outcome: "SUCCEEDED", failureCode: "timed_out" } });
    expect(errorOf(both)).toEqual([400, "VALIDATION_ERROR"]);
    expect((await m.api("/v1/sandbox/scenario-rules")).body.items[0]).toMatchObject({ outcome: "FAILED", failureCode: "account_closed" });
    const cleared = await m.api(path, { method: "PATCH", body: { outcome: "SUCCEEDED", failureCode: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.outcome).toBe("SUCCEEDED");
    expect(cleared.body).not.toHaveProperty("failureCode");
    // A code alone on a rule that does not fail: refused, the rule unchanged.
    const alone = await m.api(path, { method: "PATCH", body: { failureCode: "timed_out" } });
    expect(errorOf(alone)).toEqual([400, "VALIDATION_ERROR"]);
    expect(messageOf(alone)).toBe(`failureCode: is only for outcome FAILED, and the rule's outcome is SUCCEEDED; send "outcome": "FAILED" with it`);
    expect((await m.api("/v1/sandbox/scenario-rules")).body.items[0]).not.toHaveProperty("failureCode");
  });
});

describe("failure codes: POST /v1/sandbox/payments/{id}/complete", () => {
  it("FAILED with a failureCode shows failure on the answer, the read, the list and the payment.failed event", async () => {
    const m = await newMerchant();
    const p = (await m.api("/v1/payments", { body: depositBody() })).body;
    const done = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "FAILED", failureCode: "risk_declined" } });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ status: "FAILED", failure: failureOf("risk_declined") });
    const { read, listed, events } = await shapes(m, p.id);
    expect(read.failure).toEqual(failureOf("risk_declined"));
    expect(listed.failure).toEqual(failureOf("risk_declined"));
    expect(events.map((e) => [e.type, e.data.failure])).toEqual([["payment.failed", failureOf("risk_declined")]]);
    expect(await state(p.id)).toEqual({ status: "FAILED", failureCode: "risk_declined", events: 1, ledger: 0 });

    // The console's payment page shows the code and its message (its JSON, and the page's HTML as served).
    const cookie = await sessionOf(m.owner, "owner-password-1");
    const view = await (await getWithSession(`/api/console/payments/${p.id}`, cookie)).json();
    expect(view.payment.failure).toEqual(failureOf("risk_declined"));
    const page = await (await getWithSession(`/console/payments/${p.id}`, cookie)).text();
    const shown = present(
      page.match(/data-testid="payment-failure"[^>]*>(.*?)<\/span>/)?.[1],
      'page.match(/data-testid="payment-failure"[^>]*>(.*?)<\\/sp...',
    ).replace(/<[^>]+>/g, "");
    expect(shown).toBe(`risk_declined: ${FAILURE_CODES.risk_declined.message}`);

    // A repeat answers it unchanged; a repeat naming another code is refused; neither writes anything.
    const again = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "FAILED", failureCode: "risk_declined" } });
    expect([again.status, again.body.failure]).toEqual([200, failureOf("risk_declined")]);
    const plainRepeat = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "FAILED" } });
    expect([plainRepeat.status, plainRepeat.body.failure]).toEqual([200, failureOf("risk_declined")]);
    const other = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "FAILED", failureCode: "timed_out" } });
    expect(errorOf(other)).toEqual([409, "INVALID_STATE"]);
    expect(messageOf(other)).toMatch(/already FAILED with failure code risk_declined/);
    expect(await state(p.id)).toEqual({ status: "FAILED", failureCode: "risk_declined", events: 1, ledger: 0 });
  });

  it("a failureCode with SUCCEEDED, or an unknown code, is a 400 that says what to do and changes nothing", async () => {
    const m = await newMerchant();
    const p = (await m.api("/v1/payments", { body: depositBody() })).body;
    const before = await state(p.id);
    const succeeded = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "SUCCEEDED", failureCode: "insufficient_funds" } });
    expect(errorOf(succeeded)).toEqual([400, "VALIDATION_ERROR"]);
    expect(succeeded.body.error.requestId).toEqual(expect.any(String));
    expect(messageOf(succeeded)).toBe("failureCode: is only for outcome FAILED; leave failureCode out with outcome SUCCEEDED, or send outcome FAILED");
    const unknown = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "FAILED", failureCode: "INSUFFICIENT_FUNDS" } });
    expect(errorOf(unknown)).toEqual([400, "VALIDATION_ERROR"]);
    expect(messageOf(unknown)).toBe(`failureCode: must be one of ${FAILURE_CODE_NAMES.join(", ")} (exactly, case-sensitive)`);
    const notText = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "FAILED", failureCode: null } });
    expect(errorOf(notText)).toEqual([400, "VALIDATION_ERROR"]);
    expect(await state(p.id)).toEqual(before);
    expect(before).toEqual({ status: "PENDING", failureCode: null, events: 0, ledger: 0 });
    // The payment can still be completed afterwards, as if the refused requests never came.
    expect((await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "SUCCEEDED" } })).body.status).toBe("SUCCEEDED");
  });

  it("without a code there is no failure member anywhere: answer, read, list, events, callback", async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    const m = await newMerchant();
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    await m.api("/v1/sandbox/scenario-rules", { body: { name: "plain fail", enabled: true, match: { referencePrefix: "plain-" }, outcome: "FAILED" } });
    const byHand = (await m.api("/v1/payments", { body: depositBody() })).body;
    const done = await m.api(`/v1/sandbox/payments/${byHand.id}/complete`, { body: { outcome: "FAILED" } });
    expect(done.status).toBe(200);
    expect(done.body).not.toHaveProperty("failure");
    const byRule = (await m.api("/v1/payments", { body: depositBody({ reference: `plain-${Date.now()}` }) })).body;
    expect(byRule.scenario).not.toHaveProperty("failureCode");
    await eventually(async () => (await m.api(`/v1/payments/${byRule.id}`)).body.status === "FAILED");
    for (const id of [byHand.id, byRule.id]) {
      const { read, listed, events, details } = await shapes(m, id);
      for (const shape of [read, listed, ...events.map((e) => e.data), ...details.map((d) => d.data)]) expect(shape).not.toHaveProperty("failure");
      expect(events.map((e) => e.type)).toEqual(["payment.failed"]);
      expect(await state(id)).toMatchObject({ status: "FAILED", failureCode: null });
    }
    const got = await rx.waitFor(2);
    for (const r of got) expect(r.body.toString("utf8")).not.toContain('"failure"');
  });
});
