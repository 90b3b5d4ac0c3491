import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes, randomUUID } from "node:crypto";
import { TEST_DATABASE_URL } from "../support/env";
import { amountEntryMerchant, sessionBody } from "../support/checkout-sessions";
import { postAction, signIn } from "../support/console-http";
import {
  call,
  createConsoleUser,
  db,
  depositBody,
  eventually,
  newMerchant,
  type ApiResponse,
  type TestMerchant,
  insertPendingPayment,
} from "../support/fixtures";
import { startService, stopService, type StartedService } from "../support/global-setup";
import { waitUntil } from "../../scripts/harness/wait";
import { present } from "../../scripts/harness/present";

// Log hygiene (docs/architecture.md: secrets and bearer links never reach logs): a full flow against a
// service whose output is captured. Every request line is structured JSON with requestId, merchantId (when
// authenticated) and latencyMs; no API key, callback secret, bearer checkout url/token or password appears, for
// the store checkout (READY url) and for the customer amount-entry checkout (url, token, hosted page, actions).

let svc: StartedService;
let receiver: http.Server;
const callbacks: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req
      .on("data", (c) => (body += c))
      .on("end", () => {
        callbacks.push(body);
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  svc = await startService(
    {
      DATABASE_URL: TEST_DATABASE_URL,
      LOG_LEVEL: "info",
      TRUSTED_PROXIES: "127.0.0.1,::1",
      CALLBACK_ALLOW_LOOPBACK: "1",
      DELIVERY_POLL_INTERVAL_MS: "200",
      EXPIRY_SWEEP_INTERVAL_MS: "500",
    },
    { capture: true },
  );
}, 120_000);

afterAll(async () => {
  await stopService(svc.child);
  await new Promise((resolve) => receiver.close(resolve));
});

/** None of `secrets` (what -> value), no API key and no bearer header appears in the service's log `output`. */
function expectNoSecrets(output: string, secrets: Record<string, string>) {
  for (const [what, secret] of Object.entries(secrets)) expect(output.includes(secret), `${what} in the logs`).toBe(false);
  expect(output).not.toMatch(/sk_sandbox_[A-Za-z0-9]{8,}/);
  expect(output.toLowerCase()).not.toContain("bearer ");
}

describe("logs", () => {
  it("a full flow logs one JSON line per request with requestId, merchantId and latencyMs, and no secret or bearer link", async () => {
    const callbackSecret = `whsec_${randomBytes(24).toString("hex")}`;
    const m: TestMerchant = await newMerchant({ callbackUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`, callbackSecret });
    const as = (path: string, o: Parameters<typeof call>[1] = {}) => call(path, { base: svc.url, key: m.key, ip: m.ip, ...o });
    const badKey = `sk_sandbox_${randomBytes(32).toString("base64url").replace(/[-_]/g, "A")}`;

    // A READY store checkout: its url is a bearer link that the detail response carries.
    const token = randomBytes(24).toString("base64url");
    const store = await insertPendingPayment(m.merchant.id, { kind: "STORE", amountMinor: 25000n });
    await db.storeCheckout.create({
      data: {
        paymentId: store.id,
        state: "READY",
        chargeMinor: 25000n,
        token,
        subtotalMinor: 25000n,
        discountMinor: 0n,
        matchType: "EXACT",
        expiresAt: new Date(Date.now() + 600_000),
      },
    });

    const key = `flow-${randomUUID()}`;
    const body = depositBody({ customer: { id: "cust-log", email: "log@example.com", phone: "+971501234567" } });
    const responses: ApiResponse[] = [];
    const created = await as("/v1/payments", { body, idempotencyKey: key });
    responses.push(created);
    expect(created.status).toBe(201);
    responses.push(await as("/v1/payments", { body, idempotencyKey: key })); // replay
    responses.push(await as(`/v1/payments/${created.body.id}`));
    responses.push(await as(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } }));
    responses.push(await as("/v1/payments?limit=5"));
    const storeRead = await as(`/v1/payments/${store.id}`);
    expect(storeRead.body.checkout.url).toContain(token);
    responses.push(storeRead);
    responses.push(await as(`/v1/payments/${randomUUID()}`)); // 404
    responses.push(await as("/v1/payments", { body: { ...body, amount: "1.234" } })); // 400
    const unauthorized = await call("/v1/payments", { base: svc.url, key: badKey, ip: m.ip });
    expect(unauthorized.status).toBe(401);
    responses.push(unauthorized);
    expect(responses.map((r) => r.status)).toEqual([201, 201, 200, 200, 200, 200, 404, 400, 401]);

    // The delivery worker sends the signed callback, so its logs are checked too; every request's line is written.
    await waitUntil(() => callbacks.length > 0, { what: "the signed callback", timeoutMs: 15_000 });
    const ids = responses.map((r) => r.headers.get("x-request-id")!);
    await waitUntil(() => ids.every((id) => svc.output.some((l) => l.includes(id))), { what: "a log line for every request" });

    const lines = svc.output.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    const requestLines = lines.filter((l) => l.msg === "request");
    for (const res of responses) {
      const requestId = res.headers.get("x-request-id");
      const line = requestLines.filter((l) => l.requestId === requestId);
      expect(line, `one log line for ${requestId} (${res.status})`).toHaveLength(1);
      expect(line[0]).toMatchObject({ level: 30, status: res.status, method: expect.any(String), path: expect.stringMatching(/^\/v1\//) });
      expect(present(line?.[0], "line?.[0]").latencyMs).toEqual(expect.any(Number));
      expect(present(line?.[0], "line?.[0]").latencyMs as number).toBeGreaterThanOrEqual(0);
      if (res.status === 401) expect(present(line?.[0], "line?.[0]").merchantId).toBeUndefined();
      else expect(present(line?.[0], "line?.[0]").merchantId).toBe(m.merchant.id);
      expect(present(line?.[0], "line?.[0]").path, "paths never carry a query string (search terms)").not.toContain("?");
    }

    const output = svc.output.join("\n");
    const secrets = {
      "API key": m.key,
      "API key secret part": m.key.slice("sk_sandbox_".length, "sk_sandbox_".length + 16),
      "rejected API key": badKey,
      "callback secret": callbackSecret,
      "checkout token": token,
      "checkout url": storeRead.body.checkout.url,
      "owner password": "owner-password-1",
      "approver password": "approver-password-1",
      "customer e-mail": "log@example.com",
      "customer phone": "+971501234567",
    };
    expectNoSecrets(output, secrets);
  }, 120_000);

  it("the customer amount-entry checkout: its url and token never reach the logs (create, replay, read, page, quote, confirm, refusals), nor the API key", async () => {
    const m = await amountEntryMerchant();
    const as = (path: string, o: Parameters<typeof call>[1] = {}) => call(path, { base: svc.url, key: m.key, ip: m.ip, ...o });
    const from = svc.output.length; // only this test's lines
    const statuses: [string, number, number][] = [];
    const expectStatus = (what: string, got: number, want: number) => statuses.push([what, got, want]);

    const key = `session-${randomUUID()}`;
    const body = sessionBody();
    const created = await as("/v1/checkout-sessions", { body, idempotencyKey: key });
    expectStatus("create", created.status, 201);
    const url: string = created.body.customerCheckout.url;
    const path = new URL(url).pathname;
    const token = path.split("/").pop()!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const replay = await as("/v1/checkout-sessions", { body, idempotencyKey: key });
    expectStatus("replay", replay.status, 201);
    expect(replay.body.customerCheckout.url).toBe(url);
    const read = await as(`/v1/checkout-sessions/${created.body.id}`);
    expectStatus("read", read.status, 200);
    expect(read.body.customerCheckout.url).toBe(url);
    expectStatus("forbidden member", (await as("/v1/checkout-sessions", { body: sessionBody({ amount: "10.00" }) })).status, 400);

    // The hosted page and the customer's actions, with the token in the path (no key, no cookie).
    const page = (p: string) => fetch(svc.url + p);
    const act = (p: string, action: string, payload: unknown) =>
      fetch(`${svc.url}${p}/${action}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
    const opened = await page(path);
    expectStatus("page", opened.status, 200);
    expect(await opened.text()).toContain("How much do you want to pay?");
    expectStatus("quote malformed", (await act(path, "quote", { amount: "1.234", currency: "USD" })).status, 400);
    expectStatus("quote", (await act(path, "quote", { amount: "100.00", currency: "USD" })).status, 200);
    expectStatus("page quoted", (await page(path)).status, 200);
    expectStatus("confirm changed total", (await act(path, "confirm", { amount: "101.00", currency: "USD" })).status, 409);
    expectStatus("confirm", (await act(path, "confirm", { amount: "100.00", currency: "USD" })).status, 200);
    expectStatus("confirm again", (await act(path, "confirm", { amount: "100.00", currency: "USD" })).status, 200);
    expectStatus("page confirmed", (await page(path)).status, 200);
    const unknown = `/checkout/${randomBytes(32).toString("base64url")}`;
    expectStatus("unknown page", (await page(unknown)).status, 404);
    expectStatus("unknown quote", (await act(unknown, "quote", { amount: "1.00", currency: "USD" })).status, 404);
    expect(
      statuses.filter(([, got, want]) => got !== want),
      "statuses",
    ).toEqual([]);
    const last = await as(`/v1/checkout-sessions/${created.body.id}`);
    expect(last.body).toMatchObject({ state: "AWAITING_VERIFICATION", amount: "100.00", currency: "USD" });
    // The log is one ordered stream: once the last request's line is out, every earlier line is.
    await waitUntil(() => svc.output.some((l) => l.includes(last.headers.get("x-request-id")!)), { what: "the last request's log line" });

    const mine = svc.output.slice(from);
    const lines = mine.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    // The log did record this flow, by session id: the API requests and the customer actions.
    const requestIds = [created, replay, read].map((r) => r.headers.get("x-request-id"));
    for (const id of requestIds)
      expect(
        lines.filter((l) => l.msg === "request" && l.requestId === id && l.merchantId === m.merchant.id),
        `request line ${id}`,
      ).toHaveLength(1);
    const actions = lines.filter((l) => l.msg === "customer checkout action" && l.checkoutSessionId === created.body.id);
    expect(actions.map((l) => l.action)).toEqual(expect.arrayContaining(["quote", "confirm"]));

    const output = mine.join("\n");
    const secrets = {
      "API key": m.key,
      "API key secret part": m.key.slice("sk_sandbox_".length, "sk_sandbox_".length + 16),
      "customer checkout url": url,
      "customer checkout token": token,
      "customer checkout path": path,
      "unknown token": unknown.split("/").pop()!,
      "customer e-mail": body.customer.email,
      "customer phone": body.customer.phone,
    };
    expectNoSecrets(output, secrets);
    expect(output).not.toMatch(/\/checkout\/[A-Za-z0-9_-]{20,}/);
  }, 120_000);

  it("the flows above, a console session and the jobs leave no node-postgres warning in the output (no client runs two queries at once)", async () => {
    // A console session over the overview, lists and charts (pages that read several things at once).
    const operator = await createConsoleUser(db, { username: `logs-${randomUUID().slice(0, 8)}`, password: "operator-password-1", role: "OPERATOR" });
    const cookie = (await signIn(operator.username, "operator-password-1", undefined, svc.url)).cookie!;
    expect(cookie).toBeTruthy();
    for (const page of [
      "/console",
      "/console/payments",
      "/console/callbacks",
      "/console/approvals",
      "/console/merchants",
      "/console/users",
      "/console/pricing",
      "/console/rates",
      "/console/audit",
      "/console/settings",
      "/console/catalog",
      "/api/console/reports/payments",
      "/api/console/reports/callbacks",
      "/api/console/reports/limits",
      "/api/console/payments?limit=5",
    ]) {
      const res = await fetch(`${svc.url}${page}`, { headers: { cookie }, redirect: "manual" });
      expect(res.status, page).toBe(200);
      await res.arrayBuffer();
    }
    // API reads and writes at once, as a merchant's server sends them.
    const m = await newMerchant();
    const as = (path: string, o: Parameters<typeof call>[1] = {}) => call(path, { base: svc.url, key: m.key, ip: m.ip, ...o });
    const created = await Promise.all(Array.from({ length: 6 }, () => as("/v1/payments", { body: depositBody() })));
    await Promise.all(created.map((c) => as(`/v1/sandbox/payments/${c.body.id}/complete`, { body: { outcome: "SUCCEEDED" } })));
    await Promise.all([as("/v1/payments?limit=5"), as("/v1/events?limit=5"), ...created.map((c) => as(`/v1/payments/${c.body.id}`))]);
    // The signature debugger on a delivered callback (it reads the delivery with its event, attempts and chaos
    // requests in the console action's transaction).
    const hooked = await newMerchant({
      callbackUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`,
      callbackSecret: `whsec_${randomBytes(24).toString("hex")}`,
    });
    const paid = await call("/v1/payments", { base: svc.url, key: hooked.key, ip: hooked.ip, body: depositBody() });
    await call(`/v1/sandbox/payments/${paid.body.id}/complete`, { base: svc.url, key: hooked.key, ip: hooked.ip, body: { outcome: "SUCCEEDED" } });
    const delivery = await eventually(
      () => db.delivery.findFirst({ where: { merchantId: hooked.merchant.id, state: "SUCCEEDED" }, include: { event: true, attempts: true } }),
      15_000,
    );
    const checked = await postAction(
      "callbacks.checkSignatureAction",
      {
        deliveryId: delivery.id,
        attempt: "1",
        timestamp: present(delivery.attempts[0], "delivery.attempts[0]").signedTimestamp!,
        body: delivery.event.body,
        signature: present(delivery.attempts[0], "delivery.attempts[0]").signature!,
      },
      { cookie, base: svc.url, page: `/console/callbacks/${delivery.id}` },
    );
    expect(checked.state, checked.text.slice(0, 500)).toMatchObject({ status: "ok" });
    // waits on purpose: proves that no warning appears during the jobs' next rounds (expiry sweep, deliveries, count
    // compaction), a window of time rather than a state to wait for
    await new Promise((r) => setTimeout(r, 1_500));

    const warnings = svc.output.flatMap((line, i) =>
      /already executing a query|DeprecationWarning/.test(line) ? [svc.output.slice(i, i + 25).join("\n")] : [],
    );
    expect(warnings, "node-postgres warnings in the service's output").toEqual([]);
  }, 120_000);
});
