import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db, depositBody, freshIp, newMerchant } from "../support/fixtures";
import { amountEntryMerchant, customerAction, NO_SIDE_EFFECTS, openSession, sessionBody, sessionCustomer, sideEffects } from "../support/checkout-sessions";

// docs/api.md "Overview" 5, CreateCheckoutSession, CheckoutSession, the two /v1/checkout-sessions
// endpoints, Authentication 6; the checkout-session records
// 0016 to 0029 of docs/decisions/README.md.

const SESSION_KEYS = [
  "id",
  "reference",
  "state",
  "customerCheckout",
  "amount",
  "currency",
  "verification",
  "paymentId",
  "storeCheckoutUrl",
  "environment",
  "livePayment",
];
const CONSTANTS = {
  verification: { state: "NOT_CONFIGURED", verified: false, storeHandoffAllowed: false },
  paymentId: null,
  storeCheckoutUrl: null,
  environment: "sandbox",
  livePayment: false,
};

const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];

describe("POST /v1/checkout-sessions", () => {
  it("201 CheckoutSession in AWAITING_AMOUNT, members in the documented order, a high-entropy bearer url, 30-minute default expiry; no payment or event", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    const body = sessionBody({ customer: sessionCustomer({ ip: "203.0.113.9", country: "AE", username: "ada" }) });
    const before = Date.now();
    const res = await m.api("/v1/checkout-sessions", { body });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const s = res.body;
    expect(Object.keys(s)).toEqual(SESSION_KEYS);
    expect(s).toMatchObject({ reference: body.reference, state: "AWAITING_AMOUNT", amount: null, currency: null, ...CONSTANTS });
    expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(s.customerCheckout)).toEqual(["url", "expiresAt"]);
    const url = new URL(s.customerCheckout.url);
    expect(url.pathname).toMatch(/^\/checkout\/[A-Za-z0-9_-]{43}$/);
    expect(url.search + url.hash).toBe("");
    const expiresIn = Date.parse(s.customerCheckout.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(30 * 60_000 - 5_000);
    expect(expiresIn).toBeLessThanOrEqual(30 * 60_000 + 5_000);
    const row = await db.checkoutSession.findUniqueOrThrow({ where: { id: s.id } });
    expect(row).toMatchObject({ merchantId: m.merchant.id, state: "AWAITING_AMOUNT", customer: body.customer, token: url.pathname.split("/")[2] });
    expect(await sideEffects(m.merchant.id)).toEqual(NO_SIDE_EFFECTS);

    // Tokens are distinct per session.
    const second = await openSession(m);
    expect(second.customerCheckout.url).not.toBe(s.customerCheckout.url);
  });

  it("merchant policy (checkoutSessionMinutes) sets expiresAt", async () => {
    const m = await newMerchant({ amountEntryEnabled: true, minutes: { checkoutSession: 7 } });
    const before = Date.now();
    const s = await openSession(m);
    expect(Math.round((Date.parse(s.customerCheckout.expiresAt) - before) / 60_000)).toBe(7);
  });

  it.each([
    ["amount", "100.00", "the customer chooses the amount"],
    ["currency", "USD", "the customer chooses the currency"],
    ["fxRate", "3.6725", "merchant-supplied pricing parameters are not accepted"],
    ["rate", "3.6725", "merchant-supplied pricing parameters are not accepted"],
    ["markup", "1.5", "merchant-supplied pricing parameters are not accepted"],
    ["markupBps", 150, "merchant-supplied pricing parameters are not accepted"],
    ["commission", "2.5", "merchant-supplied pricing parameters are not accepted"],
    ["commissionBps", 250, "merchant-supplied pricing parameters are not accepted"],
    ["exchangeRate", "3.6725", "merchant-supplied pricing parameters are not accepted"],
    ["chargeCurrency", "AED", "merchant-supplied pricing parameters are not accepted"],
  ])("400 VALIDATION_ERROR naming the forbidden member %s; nothing created", async (member, value, reason) => {
    const m = await newMerchant({ amountEntryEnabled: true });
    const res = await m.api("/v1/checkout-sessions", { body: sessionBody({ [member]: value }) });
    expect(errorOf(res)).toEqual([400, "VALIDATION_ERROR"]);
    expect(res.body.error.message).toContain(`${member}: not accepted on this endpoint`);
    expect(res.body.error.message).toContain(reason);
    // null is refused too: the member must be absent.
    const nulled = await m.api("/v1/checkout-sessions", { body: sessionBody({ [member]: null }) });
    expect(errorOf(nulled)).toEqual([400, "VALIDATION_ERROR"]);
    expect(await db.checkoutSession.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("CUSTOMER_PROFILE_REQUIRED when a required customer member (id, firstName, lastName, email, phone) is missing or blank", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    for (const member of ["id", "firstName", "lastName", "email", "phone"]) {
      const customer = sessionCustomer();
      delete customer[member];
      const res = await m.api("/v1/checkout-sessions", { body: sessionBody({ customer }) });
      expect(errorOf(res), member).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
      expect(res.body.error.message).toContain(`customer.${member}`);
    }
    const blank = await m.api("/v1/checkout-sessions", { body: sessionBody({ customer: sessionCustomer({ lastName: "   " }) }) });
    expect(errorOf(blank)).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
    const none = await m.api("/v1/checkout-sessions", { body: { reference: `cs-${randomUUID()}` } });
    expect(errorOf(none)).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
    expect(none.body.error.message).toContain("customer.id, customer.firstName, customer.lastName, customer.email, customer.phone");
    expect(await db.checkoutSession.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("400 VALIDATION_ERROR for a malformed phone, other bad customer members, unknown members and a long reference; INVALID_EMAIL for a malformed e-mail", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    for (const phone of ["971501234567", "+0971501234", "+9715012", "+9715012345678901", "+971 50 123 4567", "+97150123456a"]) {
      const res = await m.api("/v1/checkout-sessions", { body: sessionBody({ customer: sessionCustomer({ phone }) }) });
      expect(errorOf(res), phone).toEqual([400, "VALIDATION_ERROR"]);
      expect(res.body.error.message).toContain("customer.phone");
    }
    // The shortest and the longest phone the pattern allows.
    expect((await m.api("/v1/checkout-sessions", { body: sessionBody({ customer: sessionCustomer({ phone: "+12345678" }) }) })).status).toBe(201);
    expect((await m.api("/v1/checkout-sessions", { body: sessionBody({ customer: sessionCustomer({ phone: "+123456789012345" }) }) })).status).toBe(201);

    for (const email of ["not-an-email", "a@b", "ada@@example.com"]) {
      const res = await m.api("/v1/checkout-sessions", { body: sessionBody({ customer: sessionCustomer({ email }) }) });
      expect(errorOf(res), email).toEqual([400, "INVALID_EMAIL"]);
    }
    const cases: [Record<string, unknown>, string][] = [
      [sessionBody({ description: "x" }), "unknown property: description"],
      [sessionBody({ customer: sessionCustomer({ cardNumber: "4111111111111111" }) }), "unknown property: customer.cardNumber"],
      [sessionBody({ customer: sessionCustomer({ country: "ae" }) }), "customer.country"],
      [sessionBody({ customer: sessionCustomer({ ip: "999.1.1.1" }) }), "customer.ip"],
      [sessionBody({ customer: sessionCustomer({ firstName: "x".repeat(121) }) }), "customer.firstName"],
      [sessionBody({ reference: "r".repeat(121) }), "reference"],
      [{ customer: sessionCustomer() }, "reference: is required"],
    ];
    for (const [body, text] of cases) {
      const res = await m.api("/v1/checkout-sessions", { body });
      expect(errorOf(res), text).toEqual([400, "VALIDATION_ERROR"]);
      expect(res.body.error.message).toContain(text);
    }
    expect(await db.checkoutSession.count({ where: { merchantId: m.merchant.id } })).toBe(2);
  });

  it("403 AMOUNT_ENTRY_NOT_ENABLED for a merchant without customer amount-entry", async () => {
    const m = await newMerchant();
    const res = await m.api("/v1/checkout-sessions", { body: sessionBody() });
    expect(errorOf(res)).toEqual([403, "AMOUNT_ENTRY_NOT_ENABLED"]);
    expect(await db.checkoutSession.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("403 IP_NOT_ALLOWED from a source IP not on the merchant's server allow-list (the customer's device IP does not count)", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    const other = freshIp();
    const res = await m.api("/v1/checkout-sessions", { body: sessionBody({ customer: sessionCustomer({ ip: other }) }), ip: other });
    expect(errorOf(res)).toEqual([403, "IP_NOT_ALLOWED"]);
    expect(await db.checkoutSession.count({ where: { merchantId: m.merchant.id } })).toBe(0);
    // GET needs no allow-listed source (docs/api.md "Authentication" 6 names only the two POST endpoints).
    const s = await openSession(m);
    expect((await m.api(`/v1/checkout-sessions/${s.id}`, { ip: other })).status).toBe(200);
  });

  it("403 INSUFFICIENT_SCOPE: creating needs payments:create, reading needs payments:read", async () => {
    const m = await newMerchant({ amountEntryEnabled: true, scopes: ["payments:read", "sandbox:simulate"] });
    expect(errorOf(await m.api("/v1/checkout-sessions", { body: sessionBody() }))).toEqual([403, "INSUFFICIENT_SCOPE"]);
    const creator = await newMerchant({ amountEntryEnabled: true, scopes: ["payments:create"] });
    const s = await openSession(creator);
    expect(errorOf(await creator.api(`/v1/checkout-sessions/${s.id}`))).toEqual([403, "INSUFFICIENT_SCOPE"]);
  });

  it("401 INVALID_API_KEY without a key", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    expect(errorOf(await m.api("/v1/checkout-sessions", { body: sessionBody(), key: null }))).toEqual([401, "INVALID_API_KEY"]);
  });

  it("idempotency: a replay returns the first response with Idempotency-Replayed, even after the customer quoted; concurrent identical requests open one session; another body is 409", async () => {
    const m = await amountEntryMerchant();
    const body = sessionBody();
    const idempotencyKey = `cs-${randomUUID()}`;
    const first = await m.api("/v1/checkout-sessions", { body, idempotencyKey });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotency-replayed")).toBeNull();
    expect((await customerAction(first.body.customerCheckout.url, "quote", { amount: "10.00", currency: "USD" })).status).toBe(200);
    const replay = await m.api("/v1/checkout-sessions", { body, idempotencyKey });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(errorOf(await m.api("/v1/checkout-sessions", { body: sessionBody(), idempotencyKey }))).toEqual([409, "IDEMPOTENCY_CONFLICT"]);
    expect(errorOf(await m.api("/v1/checkout-sessions", { body: sessionBody(), idempotencyKey: null }))).toEqual([400, "VALIDATION_ERROR"]);

    const concurrentBody = sessionBody();
    const concurrentKey = `cs-${randomUUID()}`;
    const all = await Promise.all(Array.from({ length: 5 }, () => m.api("/v1/checkout-sessions", { body: concurrentBody, idempotencyKey: concurrentKey })));
    expect(all.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(all.map((r) => r.body.id)).size).toBe(1);
    expect(await db.checkoutSession.count({ where: { merchantId: m.merchant.id, reference: concurrentBody.reference } })).toBe(1);
  });

  it("409 DUPLICATE_REFERENCE for a reference already used by one of the merchant's sessions (not by its payments or another merchant's sessions)", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    const body = sessionBody();
    expect((await m.api("/v1/checkout-sessions", { body })).status).toBe(201);
    const again = await m.api("/v1/checkout-sessions", { body: sessionBody({ reference: body.reference }) });
    expect(errorOf(again)).toEqual([409, "DUPLICATE_REFERENCE"]);
    expect(again.body.error.message).toContain("checkout session");
    const other = await newMerchant({ amountEntryEnabled: true });
    expect((await other.api("/v1/checkout-sessions", { body: sessionBody({ reference: body.reference }) })).status).toBe(201);
    const paid = await m.api("/v1/payments", { body: depositBody({ currency: "EUR" }) });
    expect(paid.status).toBe(201);
    expect((await m.api("/v1/checkout-sessions", { body: sessionBody({ reference: paid.body.reference }) })).status).toBe(201);
  });

  it("403 RISK_REJECTED when the customer is on the block list", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    await db.blockListEntry.create({ data: { merchantId: m.merchant.id, kind: "PHONE", value: "+971509999999", reason: "test" } });
    const res = await m.api("/v1/checkout-sessions", { body: sessionBody({ customer: sessionCustomer({ phone: "+971509999999" }) }) });
    expect(errorOf(res)).toEqual([403, "RISK_REJECTED"]);
    expect(await db.checkoutSession.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("405 METHOD_NOT_ALLOWED for other methods", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    expect(errorOf(await m.api("/v1/checkout-sessions"))).toEqual([405, "METHOD_NOT_ALLOWED"]);
    expect(errorOf(await m.api(`/v1/checkout-sessions/${randomUUID()}`, { method: "DELETE" }))).toEqual([405, "METHOD_NOT_ALLOWED"]);
  });
});

describe("GET /v1/checkout-sessions/{id}", () => {
  it("200 the session with the constant members; 404 NOT_FOUND for unknown, malformed and another merchant's id", async () => {
    const a = await newMerchant({ amountEntryEnabled: true });
    const b = await newMerchant({ amountEntryEnabled: true });
    const created = await openSession(a);
    const read = await a.api(`/v1/checkout-sessions/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get("cache-control")).toBe("no-store");
    expect(read.body).toEqual(created);
    expect(Object.keys(read.body)).toEqual(SESSION_KEYS);
    for (const path of [`/v1/checkout-sessions/${randomUUID()}`, "/v1/checkout-sessions/not-a-uuid", `/v1/checkout-sessions/${created.id}x`]) {
      expect(errorOf(await a.api(path)), path).toEqual([404, "NOT_FOUND"]);
    }
    const cross = await b.api(`/v1/checkout-sessions/${created.id}`);
    expect(errorOf(cross)).toEqual([404, "NOT_FOUND"]);
    expect(cross.text).not.toContain(created.reference);
  });
});
