import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrl } from "../support/fixtures";

// The customer pages' actions (docs/api.md "Limits"): POST /checkout/{token}/quote and /confirm, /store/{token}/pay and
// /decline are limited per source IP (120 a minute) and per link (30 a minute), with a 429 a customer can act on.

const token = () => randomBytes(32).toString("base64url");
let ipCounter = 0;
const freshIp = () => `198.18.${100 + Math.floor(Math.random() * 100)}.${(ipCounter++ % 250) + 1}`;

async function post(path: string, ip: string) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: '{"amount":"10.00","currency":"USD"}',
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
}

describe("limits on the customer pages' actions", () => {
  it.each(["/checkout/{t}/quote", "/checkout/{t}/confirm", "/store/{t}/pay", "/store/{t}/decline"])(
    "%s: 30 a minute per link, then 429 with Retry-After; another link goes on",
    async (template) => {
      const ip = freshIp();
      const link = token();
      const path = template.replace("{t}", link);
      for (let i = 0; i < 30; i++) expect((await post(path, ip)).status).toBe(404);
      const limited = await post(path, ip);
      expect(limited.status).toBe(429);
      expect(limited.retryAfter).toMatch(/^\d+$/);
      expect(limited.body.error).toMatchObject({
        code: "RATE_LIMITED",
        message: expect.stringMatching(/^too many attempts on this page; wait \d+ seconds and try again$/),
      });
      expect((await post(template.replace("{t}", token()), ip)).status, "another link from the same address").toBe(404);
    },
  );

  it("120 a minute per source IP across links, then 429; another address goes on", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 120; i += 20)
      statuses.push(...(await Promise.all(Array.from({ length: 20 }, () => post(`/checkout/${token()}/quote`, ip)))).map((r) => r.status));
    expect(statuses.every((s) => s === 404)).toBe(true);
    expect((await post(`/store/${token()}/pay`, ip)).status).toBe(429);
    expect((await post(`/store/${token()}/pay`, freshIp())).status).toBe(404);
  });
});
