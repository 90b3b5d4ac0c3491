import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { baseUrl, call, db, depositBody, newMerchant } from "../support/fixtures";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { createPaymentLoad } from "@/lib/domain/payments/create";
import { listLoad, paymentLoad } from "@/lib/domain/payments/read";

const envelope = (res: { body: any; headers: Headers }) => {
  expect(res.body).toEqual({ error: { code: expect.any(String), message: expect.any(String), requestId: expect.any(String) } });
  expect(res.headers.get("x-request-id")).toBe(res.body.error.requestId);
  return res.body.error.code;
};

describe("request pipeline (docs/architecture.md 'Request pipeline', docs/api.md 'Errors')", () => {
  it("415 when the content type is not application/json", async () => {
    const m = await newMerchant();
    const res = await m.api("/v1/payments", { rawBody: JSON.stringify(depositBody()), headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(415);
    expect(envelope(res)).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("413 for a body over 32 KiB, with and without Content-Length", async () => {
    const m = await newMerchant();
    const big = JSON.stringify(depositBody({ description: "x".repeat(33 * 1024) }));
    const res = await m.api("/v1/payments", { rawBody: big });
    expect(res.status).toBe(413);
    expect(envelope(res)).toBe("PAYLOAD_TOO_LARGE");
    // Chunked (no Content-Length): a stream body.
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 40; i++) c.enqueue(new TextEncoder().encode("x".repeat(1024)));
        c.close();
      },
    });
    const chunked = await fetch(`${(await import("vitest")).inject("baseUrl")}/v1/payments`, {
      method: "POST",
      headers: { authorization: `Bearer ${m.key}`, "content-type": "application/json", "idempotency-key": `k-${randomUUID()}`, "x-forwarded-for": m.ip },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("after a 413 that was answered before the body was read, the connection is closed, never reused mid-body", async () => {
    const m = await newMerchant();
    const { hostname, port } = new URL(baseUrl());
    // One keep-alive socket, so a second request would reuse the first one's connection.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, body: Buffer | null, extra: Record<string, string>) =>
      new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
        const req = http.request(
          { hostname, port, method, path, agent, timeout: 15_000, headers: { authorization: `Bearer ${m.key}`, "x-forwarded-for": m.ip, ...extra } },
          (res) => {
            const chunks: Buffer[] = [];
            res
              .on("data", (c: Buffer) => chunks.push(c))
              .on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: Buffer.concat(chunks).toString() }));
          },
        );
        req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer within 15 s`))).on("error", reject);
        if (body) {
          // Send the head and a first part, the rest only after the answer has had time to arrive.
          req.write(body.subarray(0, 1024));
          setTimeout(() => req.end(body.subarray(1024)), 300);
        } else req.end();
      });
    try {
      for (const framing of ["content-length", "chunked"] as const) {
        const big = Buffer.from(JSON.stringify(depositBody({ description: "x".repeat(200 * 1024) })));
        const headers: Record<string, string> = { "content-type": "application/json", "idempotency-key": `k-${randomUUID()}` };
        if (framing === "content-length") headers["content-length"] = String(big.length);
        const tooLarge = await send("POST", "/v1/payments", big, headers);
        expect([framing, tooLarge.status, tooLarge.connection]).toEqual([framing, 413, "close"]);
        const next = await send("GET", "/v1/payments?limit=1", null, {});
        expect([framing, next.status]).toEqual([framing, 200]);
      }
    } finally {
      agent.destroy();
    }
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("a route built from an entry and its load answers in the contract's format, before its load or handler runs", async () => {
    let ran = 0;
    const handler = async (): Promise<never> => {
      ran++;
      throw new Error("not run");
    };
    const routes = [
      merchantApi(OPERATIONS.createPayment, { load: createPaymentLoad }, handler),
      merchantApi(OPERATIONS.getPayment, { load: paymentLoad }, handler),
      merchantApi(OPERATIONS.listPayments, { load: listLoad }, handler),
      merchantApi(OPERATIONS.completeSandboxPayment, handler),
    ];
    for (const route of routes) {
      // The path parameters Next.js gives a route of /v1/payments/{id} (the others ignore them).
      const context = { params: Promise.resolve({ id: randomUUID() }) };
      const response = await route(new Request("http://127.0.0.1/v1/payments", { headers: { authorization: "Bearer sk_sandbox_not_a_key" } }), context);
      expect(response.status).toBe(401);
      const body = await response.json();
      expect(body).toEqual({ error: { code: "INVALID_API_KEY", message: expect.any(String), requestId: response.headers.get("x-request-id") } });
    }
    expect(ran).toBe(0);
  });

  it("401 INVALID_API_KEY for missing, malformed, unknown, expired, revoked keys and an inactive merchant", async () => {
    const m = await newMerchant();
    const cases: (string | null)[] = [null, "Basic abc", "sk_sandbox_unknownunknownunknown", `${m.key}x`];
    for (const key of cases) {
      const res = await call("/v1/payments", { key, headers: key === "Basic abc" ? { authorization: "Basic abc" } : {} });
      expect(res.status, String(key)).toBe(401);
      expect(envelope(res)).toBe("INVALID_API_KEY");
    }
    const expired = await newMerchant();
    await db.apiKey.update({ where: { id: expired.keyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await expired.api("/v1/payments")).status).toBe(401);
    const revoked = await newMerchant();
    await db.apiKey.update({ where: { id: revoked.keyId }, data: { revokedAt: new Date() } });
    expect((await revoked.api("/v1/payments")).status).toBe(401);
    const inactive = await newMerchant();
    await db.merchant.update({ where: { id: inactive.merchant.id }, data: { status: "INACTIVE" } });
    const res = await inactive.api("/v1/payments");
    expect(res.status).toBe(401);
    expect(envelope(res)).toBe("INVALID_API_KEY");
  });

  it("403 INSUFFICIENT_SCOPE for a key without the endpoint's scope", async () => {
    const m = await newMerchant({ scopes: ["payments:read"] });
    const res = await m.api("/v1/payments", { body: depositBody() });
    expect(res.status).toBe(403);
    expect(envelope(res)).toBe("INSUFFICIENT_SCOPE");
    const sim = await m.api(`/v1/sandbox/payments/${randomUUID()}/complete`, { body: { outcome: "SUCCEEDED" } });
    expect(sim.status).toBe(403);
    const reader = await newMerchant({ scopes: ["payments:create"] });
    expect((await reader.api("/v1/payments")).status).toBe(403);
  });

  it("400 VALIDATION_ERROR for a missing or malformed Idempotency-Key", async () => {
    const m = await newMerchant();
    for (const idempotencyKey of [null, "short", "has space in it", "x".repeat(129), "bad/slash-key"]) {
      const res = await m.api("/v1/payments", { body: depositBody(), idempotencyKey });
      expect(res.status, String(idempotencyKey)).toBe(400);
      expect(envelope(res)).toBe("VALIDATION_ERROR");
    }
    expect((await m.api("/v1/payments", { body: depositBody(), idempotencyKey: "a-Z_0.9:" + "x".repeat(120) })).status).toBe(201);
  });

  it("400 for malformed JSON, unknown members, bad formats; INVALID_EMAIL for a bad e-mail; nothing written", async () => {
    const m = await newMerchant();
    const cases: [unknown, string, RegExp][] = [
      ["{not json", "VALIDATION_ERROR", /JSON/],
      [depositBody({ merchantId: randomUUID() }), "VALIDATION_ERROR", /unknown property: merchantId/],
      [depositBody({ amount: 100 }), "VALIDATION_ERROR", /amount/],
      [depositBody({ amount: "1.234" }), "VALIDATION_ERROR", /amount/],
      [depositBody({ amount: "12345678901" }), "VALIDATION_ERROR", /amount/],
      [depositBody({ currency: "JPY" }), "VALIDATION_ERROR", /currency/],
      [depositBody({ method: "CARD" }), "VALIDATION_ERROR", /method/],
      [depositBody({ reference: "r".repeat(121) }), "VALIDATION_ERROR", /reference/],
      [depositBody({ description: "d".repeat(501) }), "VALIDATION_ERROR", /description/],
      [depositBody({ customer: { cardNumber: "4111111111111111" } }), "VALIDATION_ERROR", /unknown property: customer.cardNumber/],
      [depositBody({ customer: { phone: "0501234567" } }), "VALIDATION_ERROR", /customer.phone/],
      [depositBody({ customer: { country: "ae" } }), "VALIDATION_ERROR", /customer.country/],
      [depositBody({ customer: { email: "not-an-email" } }), "INVALID_EMAIL", /customer.email/],
      [{ amount: "1.00" }, "VALIDATION_ERROR", /reference: is required/],
      [[1, 2], "VALIDATION_ERROR", /body/],
    ];
    for (const [body, code, message] of cases) {
      const res = await m.api("/v1/payments", { rawBody: typeof body === "string" ? body : JSON.stringify(body) });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(envelope(res)).toBe(code);
      expect(res.body.error.message).toMatch(message);
      expect(res.text).not.toMatch(/at .*\.js|stack|prisma/i);
    }
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(0);
    expect(await db.idempotencyRecord.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("404 and 405 in the error envelope for unknown routes and methods under /v1", async () => {
    const m = await newMerchant();
    for (const [method, path] of [
      ["GET", "/v1/nope"],
      ["POST", "/v1/refunds"],
      ["DELETE", "/v1/a/b/c"],
    ] as const) {
      const res = await call(path, { method, key: m.key, body: method === "POST" ? {} : undefined });
      expect(res.status).toBe(404);
      expect(envelope(res)).toBe("NOT_FOUND");
    }
    const res = await call("/v1/payments", { method: "DELETE", key: m.key });
    expect(res.status).toBe(405);
    expect(envelope(res)).toBe("METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toBe("GET, POST");
  });

  it("every success response carries X-Request-Id", async () => {
    const m = await newMerchant();
    const res = await m.api("/v1/payments");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("429 RATE_LIMITED with Retry-After past 300 requests a minute per key", async () => {
    const m = await newMerchant();
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const results = await Promise.all(Array.from({ length: 31 }, () => m.api("/v1/payments?limit=1")));
      statuses.push(...results.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    const limited = await m.api("/v1/payments?limit=1");
    expect(limited.status).toBe(429);
    expect(envelope(limited)).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // Another key of the same merchant (a different source IP) is not affected.
    const other = await newMerchant();
    expect((await other.api("/v1/payments?limit=1")).status).toBe(200);
  });

  it("429 past 600 requests a minute from one source IP, across keys", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const c = await newMerchant();
    const ip = a.ip;
    let ok = 0;
    for (let batch = 0; batch < 20; batch++) {
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => call("/v1/payments?limit=1", { key: [a.key, b.key, c.key][i % 3], ip })));
      ok += results.filter((r) => r.status === 200).length;
    }
    expect(ok).toBe(600); // 200 per key: only the per-IP budget is exhausted
    const limited = await call("/v1/payments?limit=1", { key: b.key, ip });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("probe findings", () => {
  it("the Bearer scheme name is case-insensitive: `bearer <key>` and `BEARER <key>` authenticate", async () => {
    const m = await newMerchant();
    for (const scheme of ["bearer", "BEARER", "Bearer"]) {
      const res = await call("/v1/payments?limit=1", { key: null, headers: { authorization: `${scheme} ${m.key}` } });
      expect(res.status, scheme).toBe(200);
    }
    expect((await call("/v1/payments?limit=1", { key: null, headers: { authorization: `Basic ${m.key}` } })).status).toBe(401);
  });

  it("requests with an invalid API key count toward the per-IP limit (600 a minute, whatever the key)", async () => {
    const m = await newMerchant();
    const ip = `203.0.113.${200 + Math.floor(Math.random() * 50)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 600; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, () => fetch(`${baseUrl()}/v1/payments?limit=1`, { headers: { authorization: "Bearer not-a-key", "x-forwarded-for": ip } })),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.every((s) => s === 401)).toBe(true);
    const valid = await call("/v1/payments?limit=1", { key: m.key, ip });
    expect(valid.status).toBe(429);
    expect(valid.body.error.code).toBe("RATE_LIMITED");
    expect((await call("/v1/payments?limit=1", { key: m.key, ip: "198.18.0.77" })).status, "another address is not limited").toBe(200);
  });

  it("a far-past or far-future day is 400 VALIDATION_ERROR (never a 500), on the API and in the console", async () => {
    const m = await newMerchant();
    for (const query of ["from=0001-01-01", "from=0000-01-01", "to=0000-01-02", "from=1969-12-31", "to=10000-01-01"]) {
      for (const path of ["/v1/payments", "/v1/events"]) {
        const res = await m.api(`${path}?${query}`);
        expect(res.status, `${path}?${query}`).toBe(400);
        expect(res.body.error.code).toBe("VALIDATION_ERROR");
        expect(res.body.error.message).toMatch(/from 1970-01-01 to 9999-12-31/);
      }
    }
    const { sessionOf, getWithSession } = await import("../support/console-http");
    const cookie = await sessionOf(m.owner, "owner-password-1");
    for (const path of ["/api/console/payments?from=0001-01-01", "/console/payments?from=0001-01-01"]) {
      const res = await getWithSession(path, cookie);
      expect(res.status, path).toBeLessThan(500);
    }
  });
});
