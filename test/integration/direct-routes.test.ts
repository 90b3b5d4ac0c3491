import http from "node:http";
import { randomUUID } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { baseUrl, depositBody, newMerchant } from "../support/fixtures";

// The hot payment routes answered by their handlers straight from server.mjs (docs/architecture.md "Hot paths",
// decision 0192): the same answers and headers as through Next.js (which still serves a create whose length is not
// declared: sent chunked), the static headers of every path, gzip for a client that accepts it.

/** One raw HTTP request (node:http, so no client adds or removes Accept-Encoding or Content-Length). */
function raw(
  base: string,
  opts: { method: string; path: string; headers: Record<string, string>; body?: string; chunked?: boolean },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${opts.path}`, { method: opts.method, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    if (opts.body !== undefined && opts.chunked) {
      // Two writes without a Content-Length: node:http sends the body chunked.
      req.write(opts.body.slice(0, 10));
      req.end(opts.body.slice(10));
    } else req.end(opts.body);
  });
}

describe("hot payment routes answered without Next.js' request handling", () => {
  it("a create answers alike directly and through Next.js (sent chunked), with the static headers and Vary: Accept-Encoding; a read by id gives it back", async () => {
    const m = await newMerchant();
    const auth = { authorization: `Bearer ${m.key}`, "content-type": "application/json" };
    const created: Record<string, unknown>[] = [];
    for (const chunked of [false, true]) {
      const body = JSON.stringify(depositBody({ amount: "12.34" }));
      const res = await raw(baseUrl(), {
        method: "POST",
        path: "/v1/payments",
        headers: { ...auth, "idempotency-key": `direct-${randomUUID()}` },
        body,
        chunked,
      });
      expect(res.status, res.body.toString()).toBe(201);
      created.push(JSON.parse(res.body.toString()));
      for (const [name, value] of [
        ["x-frame-options", "DENY"],
        ["x-content-type-options", "nosniff"],
        ["referrer-policy", "no-referrer"],
        ["cache-control", "no-store"],
        ["content-type", "application/json; charset=utf-8"],
      ] as const)
        expect(res.headers[name], `chunked ${chunked}: ${name}`).toBe(value);
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      // Answered directly: in one write with its length; through Next.js: chunked.
      if (chunked) expect(res.headers["transfer-encoding"]).toBe("chunked");
      else expect(res.headers["content-length"]).toBe(String(res.body.length));
    }
    const refused = await raw(baseUrl(), {
      method: "POST",
      path: "/v1/payments",
      headers: { ...auth, "idempotency-key": `direct-${randomUUID()}` },
      body: "{}",
    });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString()).error.code).toBe("VALIDATION_ERROR");
    // The same members in the same order on both ways.
    expect(Object.keys(created[0] ?? {})).toEqual(Object.keys(created[1] ?? {}));
    for (const payment of created) {
      const read = await raw(baseUrl(), { method: "GET", path: `/v1/payments/${String(payment.id)}`, headers: auth });
      expect(read.status).toBe(200);
      expect(read.headers["content-length"]).toBe(String(read.body.length));
      expect(JSON.parse(read.body.toString())).toEqual(payment);
    }
  });

  it("a page of 1 KiB or more is gzipped for a client that accepts gzip, and sent plain to one that does not", async () => {
    const m = await newMerchant();
    const auth = { authorization: `Bearer ${m.key}`, "content-type": "application/json" };
    for (let i = 0; i < 3; i++) expect((await m.api("/v1/payments", { body: depositBody() })).status).toBe(201);
    const zipped = await raw(baseUrl(), { method: "GET", path: "/v1/payments", headers: { ...auth, "accept-encoding": "gzip" } });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    const plain = await raw(baseUrl(), { method: "GET", path: "/v1/payments", headers: auth });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.length).toBeGreaterThanOrEqual(1024);
    expect(JSON.parse(gunzipSync(zipped.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it("a create sent chunked, without a Content-Length, is served too (by Next.js), and a replay of it is answered directly", async () => {
    const m = await newMerchant();
    const key = `chunked-${randomUUID()}`;
    const headers = { authorization: `Bearer ${m.key}`, "content-type": "application/json", "idempotency-key": key };
    const body = JSON.stringify(depositBody());
    const first = await raw(baseUrl(), { method: "POST", path: "/v1/payments", headers, body, chunked: true });
    expect(first.status, first.body.toString()).toBe(201);
    const replay = await raw(baseUrl(), { method: "POST", path: "/v1/payments", headers, body });
    expect(replay.status).toBe(201);
    expect(replay.headers["idempotency-replayed"]).toBe("true");
    expect(JSON.parse(replay.body.toString())).toEqual(JSON.parse(first.body.toString()));
  });
});
