import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { keyDisplayPrefix } from "@/lib/domain/keys/api-keys";
import { pruneRequestLog } from "@/lib/application/request-log/retention";
import { baseUrl, db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { implementedOperations, merchantFor, recordFor, sendValid } from "../support/operations";
import { docBlock } from "../support/readme";
import { waitUntil } from "../../scripts/harness/wait";
import { present } from "../../scripts/harness/present";

// The request log (docs/api.md "Request log") over real HTTP: every operation's request appears with the right
// fields and without a secret or bearer link; another merchant's requests are never visible; pruning keeps the
// window.

/** Secrets and bearer links that must never be in a logged request. */
function secretsIn(text: string, m: TestMerchant): string[] {
  const found: string[] = [];
  if (text.includes(m.key)) found.push("the API key");
  if (/whsec_[A-Za-z0-9_-]{10,}/.test(text)) found.push("a whsec_ secret");
  if (/\/(checkout|store)\/[A-Za-z0-9_-]{16,}/.test(text)) found.push("a customer page link");
  return found;
}

async function logged(m: TestMerchant, requestId: string) {
  const res = await m.api(`/v1/requests/${requestId}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("request log", () => {
  it("records a request of every operation with its fields, and no secret or bearer link", async () => {
    for (const op of implementedOperations) {
      const m = await merchantFor(op);
      const id = await recordFor(op, m);
      const res = await sendValid(op, m, id);
      expect(res.status, `${op.operationId}: ${res.text}`).toBe(op.success.status);
      const requestId = res.headers.get("x-request-id")!;
      const entry = await logged(m, requestId);
      expect(entry, op.operationId).toMatchObject({
        requestId,
        method: op.method,
        status: op.success.status,
        errorCode: null,
        replayed: false,
        keyPrefix: keyDisplayPrefix(m.key),
      });
      expect(entry.path).toBe(op.path.replace("{id}", id ?? ""));
      expect(entry.latencyMs).toBeGreaterThanOrEqual(0);
      expect(entry.idempotencyKey !== null, op.operationId).toBe(op.method !== "GET");
      if (op.eventStream === undefined) expect(entry.responseBody, op.operationId).not.toBeNull();
      expect(secretsIn(JSON.stringify(entry), m), op.operationId).toEqual([]);
      // What a create or a read was about is linked.
      if (op.operationId === "createPayment") expect(entry.resource).toEqual({ type: "payment", id: res.body.id });
      if (op.operationId === "getEvent") expect(entry.resource).toEqual({ type: "event", id });
    }
  }, 240_000);

  it("a bearer link in an answer is redacted; the rest of the body is kept", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    const res = await m.api("/v1/checkout-sessions", {
      body: { reference: `s-${randomUUID()}`, customer: { id: "c1", firstName: "A", lastName: "B", email: "a@example.com", phone: "+14155550100" } },
    });
    expect(res.status, res.text).toBe(201);
    const entry = await logged(m, res.headers.get("x-request-id")!);
    const answer = JSON.parse(entry.responseBody);
    expect(answer.customerCheckout.url).toBe("[redacted]");
    expect(answer.reference).toBe(res.body.reference);
    expect(entry.responseBody).not.toContain(new URL(res.body.customerCheckout.url).pathname);
  });

  it("errors carry their code and requestId; replays are marked; filters find them", async () => {
    const m = await newMerchant();
    const bad = await m.api("/v1/payments", { body: depositBody({ amount: "1.234" }) });
    expect(bad.status).toBe(400);
    const badEntry = await logged(m, bad.body.error.requestId);
    expect(badEntry).toMatchObject({ status: 400, errorCode: "VALIDATION_ERROR", requestId: bad.headers.get("x-request-id") });
    expect(JSON.parse(badEntry.requestBody).amount).toBe("1.234");

    const key = `replay-${randomUUID()}`;
    const body = depositBody();
    const first = await m.api("/v1/payments", { body, idempotencyKey: key });
    const again = await m.api("/v1/payments", { body, idempotencyKey: key });
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect((await logged(m, first.headers.get("x-request-id")!)).replayed).toBe(false);
    expect((await logged(m, again.headers.get("x-request-id")!)).replayed).toBe(true);

    const byKey = await m.api(`/v1/requests?idempotencyKey=${key}`);
    expect(byKey.body.items.map((r: { requestId: string }) => r.requestId).sort()).toEqual(
      [first.headers.get("x-request-id"), again.headers.get("x-request-id")].sort(),
    );
    const errors = await m.api("/v1/requests?status=4xx");
    expect(errors.body.items.map((r: { requestId: string }) => r.requestId)).toEqual([bad.body.error.requestId]);
    const byCode = await m.api("/v1/requests?errorCode=VALIDATION_ERROR&path=/v1/payments");
    expect(byCode.body.total).toBe(1);
    const list = await m.api("/v1/requests?limit=2");
    expect(list.body).toMatchObject({ page: 1, limit: 2 });
    expect(list.body.total).toBeGreaterThanOrEqual(4);
    const refused = await m.api("/v1/requests?status=6xx");
    expect(refused.status).toBe(400);
  });

  it("another merchant's requests are never visible", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const created = await a.api("/v1/payments", { body: depositBody() });
    const requestId = created.headers.get("x-request-id")!;
    await logged(a, requestId);
    expect((await b.api(`/v1/requests/${requestId}`)).status).toBe(404);
    const listed = await b.api("/v1/requests?limit=100");
    expect(listed.body.items.some((r: { requestId: string }) => r.requestId === requestId)).toBe(false);
    expect((await b.api(`/v1/requests?idempotencyKey=${encodeURIComponent(String((await logged(a, requestId)).idempotencyKey))}`)).body.total).toBe(0);
  });

  it("pruning deletes requests older than the retention period and keeps the rest", async () => {
    const m = await newMerchant();
    const now = new Date();
    const row = (daysAgo: number) => ({
      requestId: randomUUID(),
      merchantId: m.merchant.id,
      apiKeyId: randomUUID(),
      keyPrefix: "sk_sandbox_abcdef",
      method: "GET",
      path: "/v1/payments",
      status: 200,
      latencyMs: 1,
      createdAt: new Date(now.getTime() - daysAgo * 24 * 3600 * 1000),
    });
    const old = row(15);
    const kept = row(13);
    await db.requestLog.createMany({ data: [old, kept] });
    await pruneRequestLog(db, now);
    expect(await db.requestLog.findUnique({ where: { requestId: old.requestId } })).toBeNull();
    expect(await db.requestLog.findUnique({ where: { requestId: kept.requestId } })).not.toBeNull();
  });

  it("sandpiper logs tail follows the key's merchant's requests as they are answered, with filters, and no other merchant's", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const tail = (m: TestMerchant, extra: string[] = []) => {
      const child = spawn(
        process.execPath,
        [path.resolve(__dirname, "../../bin/sandpiper.mjs"), "logs", "tail", "--api-url", baseUrl(), "--api-key", m.key, ...extra],
        { cwd: os.tmpdir(), stdio: ["ignore", "pipe", "pipe"] },
      );
      const lines: string[] = [];
      for (const s of [child.stdout!, child.stderr!]) s.setEncoding("utf8").on("data", (t: string) => lines.push(...t.split("\n").filter(Boolean)));
      return { child, lines };
    };
    const all = tail(a);
    const errorsOnly = tail(a, ["--status", "4xx"]);
    const other = tail(b);
    await eventually(async () => [all, errorsOnly, other].every((t) => t.lines.some((l) => l.startsWith("Following the request log"))), 30_000);
    const ok = await a.api("/v1/payments", { body: depositBody() });
    const bad = await a.api("/v1/payments", { body: depositBody({ currency: "XXX" }) });
    const okId = ok.headers.get("x-request-id")!;
    const badId = bad.headers.get("x-request-id")!;
    await eventually(async () => all.lines.some((l) => l.includes(badId)) && errorsOnly.lines.some((l) => l.includes(badId)), 15_000);
    expect(all.lines.find((l) => l.includes(okId))).toMatch(/POST  \/v1\/payments  201  \d+ ms  req .* idem /);
    expect(all.lines.find((l) => l.includes(badId))).toMatch(/ 400 .*VALIDATION_ERROR$/);
    expect(
      errorsOnly.lines.some((l) => l.includes(okId)),
      "the 4xx filter leaves the 201 out",
    ).toBe(false);
    // The other tail follows the log in order: once it shows a later request of its own merchant, it has passed the
    // place where the two requests above would stand.
    const later = (await b.api("/v1/payments", { body: depositBody() })).headers.get("x-request-id")!;
    await waitUntil(() => other.lines.some((l) => l.includes(later)), { what: "the other merchant's tail to show its own later request", timeoutMs: 15_000 });
    expect(
      other.lines.some((l) => l.includes(okId) || l.includes(badId)),
      "another merchant's tail shows none of them",
    ).toBe(false);
    expect(
      all.lines.some((l) => l.includes("/v1/requests")),
      "its own reads are left out",
    ).toBe(false);
    for (const t of [all, errorsOnly, other]) {
      const exited = new Promise((r) => t.child.once("exit", r));
      t.child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  }, 60_000);

  it("the request log lines of docs/guides/accept-a-payment.md work as written", async () => {
    const m = await newMerchant();
    const bad = await m.api("/v1/payments", { body: depositBody({ amount: "12.345" }) });
    const curls = docBlock("docs/guides/accept-a-payment.md", "# walk-through: request log")
      .split("\n")
      .filter((l) => l.startsWith("curl "));
    expect(curls).toHaveLength(2);
    const run = (line: string) =>
      JSON.parse(
        execFileSync("bash", ["-c", line.replace("<REQUEST_ID>", bad.body.error.requestId)], {
          env: { ...process.env, BASE: baseUrl(), KEY: m.key },
          encoding: "utf8",
        }),
      );
    const list = run(present(curls[0], "curls[0]"));
    expect(list.items.map((r: { requestId: string }) => r.requestId)).toEqual([bad.body.error.requestId]);
    expect(list.items[0]).toMatchObject({ method: "POST", path: "/v1/payments", status: 400, errorCode: "VALIDATION_ERROR" });
    expect(run(present(curls[1], "curls[1]"))).toMatchObject({ requestId: bad.body.error.requestId, status: 400 });
  });
});
