import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../support/env";
import { call, db, depositBody, eventually, newMerchant, type ApiResponse, type TestMerchant } from "../support/fixtures";
import { startService, stopService, type StartedService } from "../support/global-setup";
import { spansOf } from "../support/otlp";
import { startReceiver } from "../support/receiver";
import { after, before, cardNumber, leaks, luhnCard, written } from "../support/secrets";

// docs/operating.md "Secrets in logs and traces": one rule for every text that leaves the service. A real start with
// its stdout captured and OTEL_EXPORTER_OTLP_ENDPOINT pointed at a collector of this test is sent card numbers in every
// writing the rule promises (fast-check generates them; the reported ones are always among them), passwords and the
// API key, in a path, a query, the Authorization header, a body that is not valid JSON and a reference that is
// answered; then none of them may be found in the request log, the stdout log, the spans or the error answers.

let svc: StartedService;
let collector: Awaited<ReturnType<typeof startReceiver>>;
let m: TestMerchant;

beforeAll(async () => {
  collector = await startReceiver();
  svc = await startService(
    { DATABASE_URL: TEST_DATABASE_URL, OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin, TRUSTED_PROXIES: "127.0.0.1,::1", LOG_LEVEL: "info" },
    { capture: true },
  );
  m = await newMerchant();
}, 90_000);

afterAll(async () => {
  if (svc) await stopService(svc.child);
  await collector?.close();
});

type Case = { card: string; head: string; tail: string; password: string };

/** The reported writings, then generated ones: every separator, full-width digits, after `7-`, in a path. */
function cases(): Case[] {
  const reported = ["4242424242424242", "4242.4242.4242.4242", "4242_4242_4242_4242", "4242\u00A04242\u00A04242\u00A04242", "4242/4242/4242/4242"];
  const fixed = [...reported, written("4242424242424242", "", true)].map((card) => ({ card, head: "sec-a4cfe7-", tail: "", password: "Hunter2Secret" }));
  const generated = fc.sample(fc.record({ card: cardNumber, head: before, tail: after, password: fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{9,20}$/) }), {
    numRuns: 14,
  });
  return [...fixed, ...generated, { card: written(luhnCard("411111111111111"), " "), head: "", tail: "", password: "pw-in-a-form-body" }];
}

/** Every string inside a parsed JSON value, joined by newlines. */
function strings(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(strings).join("\n");
  if (value && typeof value === "object")
    return Object.entries(value)
      .map(([k, v]) => `${k}\n${strings(v)}`)
      .join("\n");
  return "";
}

describe("no secret leaves through any outlet", () => {
  it("request log, stdout log, spans (attributes, events, names) and error answers hold none of the generated secrets", async () => {
    const all = cases();
    const answers: ApiResponse[] = [];
    const logged: string[] = [];
    for (const c of all) {
      const inner = `${c.head}${c.card}${c.tail}`;
      const base = { base: svc.url, key: m.key, ip: m.ip };
      // A path and a query (the reproduction of the traces: search, password and api_key, with the key as bearer too).
      const query = `search=${encodeURIComponent(c.card)}&password=${encodeURIComponent(c.password)}&api_key=${encodeURIComponent(m.key)}`;
      answers.push(await call(`/v1/payments/${encodeURIComponent(inner)}?${query}`, base));
      answers.push(await call(`/v1/payments?${query}`, base));
      // A body that is not valid JSON, cut after a password.
      const broken = await call("/v1/payments", {
        ...base,
        rawBody: `{"reference":"${inner}","cvv":"987","password":"${c.password}",`,
        idempotencyKey: `idem-${/^[\x20-\x7e]*$/.test(inner) ? inner : encodeURIComponent(inner)}`,
      });
      expect(broken.status).toBe(400);
      answers.push(broken);
      // A reference the answer echoes (201, or 400 when the reference's pattern refuses the writing).
      const made = await call("/v1/payments", {
        ...base,
        body: depositBody({ reference: `${inner}-${randomUUID().slice(0, 8)}` }),
        idempotencyKey: randomUUID(),
      });
      expect([201, 400]).toContain(made.status);
      answers.push(made);
      // An error that echoes what was sent: an unknown member's name ("unknown property: ...").
      const echoed = await call("/v1/payments", { ...base, body: { ...depositBody(), [`x-${inner}`]: 1 }, idempotencyKey: randomUUID() });
      expect(echoed.status).toBe(400);
      expect(echoed.body.error.message).toMatch(/^unknown property: x-.*\[redacted: card number\]/);
      answers.push(echoed);
      logged.push(broken.headers.get("x-request-id")!, made.headers.get("x-request-id")!, echoed.headers.get("x-request-id")!);
    }
    // A form body with the password, and an error that echoes a value: each answer's message is redacted too.
    answers.push(
      await call("/v1/payments", { base: svc.url, key: m.key, ip: m.ip, rawBody: `reference=x&password=pw-in-a-form-body`, idempotencyKey: randomUUID() }),
    );

    const rows = await eventually(async () => {
      const found = await db.requestLog.findMany({ where: { merchantId: m.merchant.id } });
      return logged.every((id) => found.some((r) => r.requestId === id)) ? found : null;
    }, 30_000);
    const spans = await eventually(async () => {
      const found = spansOf(collector.received);
      return logged.every((id) => found.some((s) => s.attributes["sandpiper.request_id"] === id)) ? found : null;
    }, 45_000);
    // waits on purpose: Next.js' own request spans end after ours and go out in a later export; no span marks the
    // last of them, so no condition says they have all arrived
    await new Promise((r) => setTimeout(r, 2_500));

    const exported = collector.received.filter((r) => r.path === "/v1/traces").map((r) => strings(JSON.parse(r.body.toString())));
    const outlets: Record<string, string[]> = {
      "request log": rows.map((r) => [r.path, r.query ?? "", r.idempotencyKey ?? "", r.requestBody ?? "", r.responseBody ?? ""].join("\n")),
      "stdout log": svc.output,
      spans: exported,
      "error answers": answers.filter((a) => a.status >= 400).map((a) => a.text),
    };
    const secrets = [...new Set([...all.flatMap((c) => [c.card, c.password]), m.key])];
    for (const [outlet, texts] of Object.entries(outlets)) {
      expect(texts.length, outlet).toBeGreaterThan(0);
      expect(
        texts.filter((t) => /cvv\\?"\s*:\s*\\?"987/.test(t)),
        outlet,
      ).toEqual([]);
      expect(
        texts.flatMap((t) => leaks(t, secrets).map((s) => `${JSON.stringify(s)} in ${t.slice(0, 300)}`)),
        outlet,
      ).toEqual([]);
    }
    // The outlets did carry these requests: the request span's target and the request log's query are there, redacted.
    const targets = spans.flatMap((s) =>
      Object.entries(s.attributes).filter(([k, v]) => /target|url/.test(k) && typeof v === "string" && v.includes("search=")),
    );
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.every(([, v]) => String(v).includes("password=[redacted]") && String(v).includes("api_key=[redacted]"))).toBe(true);
    expect(rows.some((r) => r.query?.includes("password=%5Bredacted%5D"))).toBe(true);
    expect(svc.output.some((line) => line.includes('"path":"/v1/payments/'))).toBe(true);
  }, 240_000);
});
