import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { request, ServiceError } from "./client";

// The HTTP side of `sandpiper` (docs/callbacks.md "The sandpiper command") against a real local HTTP server: what a
// refusal turns into (one line with the envelope's code, message and requestId, and what to do).

let server: http.Server;
let url: string;
const seen: http.IncomingHttpHeaders[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers);
    const [status, body] =
      req.url === "/ok"
        ? [200, '{"fine":true}']
        : req.url === "/missing"
          ? [404, '{"error":{"code":"NOT_FOUND","message":"event not found.","requestId":"req-1"}}']
          : req.url === "/key"
            ? [401, '{"error":{"code":"INVALID_API_KEY","message":"the API key is not valid\\nat all","requestId":"req-2"}}']
            : [502, "<html>bad gateway</html>"];
    res.writeHead(status, { "content-type": "application/json", "x-request-id": "req-3" }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const conn = () => ({ apiKey: "sk_sandbox_never-shown", apiUrl: url });
async function refusal(path: string): Promise<ServiceError> {
  const error = await request(conn(), "GET", path, z.unknown()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe("request", () => {
  it("sends the key as a bearer token and the Idempotency-Key; answers the JSON of a 2xx", async () => {
    expect(await request(conn(), "POST", "/ok", z.object({ fine: z.boolean() }), { idempotencyKey: "k-12345678", body: {} })).toEqual({ fine: true });
    expect(seen.at(-1)).toMatchObject({ authorization: "Bearer sk_sandbox_never-shown", "idempotency-key": "k-12345678", "content-type": "application/json" });
  });

  it("a 2xx answer is parsed by the command's schema: members it does not name pass through; one it cannot read is a one-line error", async () => {
    expect(await request(conn(), "POST", "/ok", z.looseObject({}), { body: {} })).toEqual({ fine: true });
    const unreadable = (await request(conn(), "POST", "/ok", z.object({ fine: z.string() }), { body: {} }).catch((e: unknown) => e)) as ServiceError;
    expect(unreadable).toBeInstanceOf(ServiceError);
    expect(unreadable.code).toBe("UNEXPECTED_ANSWER");
    expect(unreadable.line()).toMatch(/^sandpiper: the service answered 200 UNEXPECTED_ANSWER: POST \/ok answered what this sandpiper cannot read \(fine: /);
  });

  it("a refusal is one line with status, code, message and requestId, and what to do; never the key", async () => {
    expect((await refusal("/missing")).line()).toBe("sandpiper: the service answered 404 NOT_FOUND: event not found, requestId req-1.");
    expect((await refusal("/key")).line()).toBe(
      "sandpiper: the service refused the API key (401 INVALID_API_KEY: the API key is not valid at all, requestId req-2). Use a valid sandbox API key: --api-key sk_sandbox_... or SANDPIPER_API_KEY.",
    );
    expect((await refusal("/proxy")).line()).toBe(
      "sandpiper: the service answered 502 HTTP_ERROR: no error envelope (<html>bad gateway</html>), requestId req-3. The service failed; run the command again, and give the requestId to its operator if it persists.",
    );
    const down = (await request({ apiKey: "sk_sandbox_never-shown", apiUrl: "http://127.0.0.1:5" }, "GET", "/", z.unknown()).catch(
      (e: unknown) => e,
    )) as ServiceError;
    expect(down.line()).toMatch(/^sandpiper: cannot reach the service at http:\/\/127\.0\.0\.1:5 \(ECONNREFUSED\)\. Start it/);
    for (const e of [await refusal("/missing"), await refusal("/key"), down]) expect(e.line()).not.toContain("never-shown");
  });
});
