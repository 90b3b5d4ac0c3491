import { describe, expect, it } from "vitest";
import { HELP, UsageError } from "./args";
import { formatRequestLine, parseLogsTail } from "./commands/logs";

const env = { SANDPIPER_API_KEY: "sk_sandbox_test" };

describe('sandpiper logs tail (docs/api.md "Request log")', () => {
  it("parses its filters into the request log's query", () => {
    const args = parseLogsTail(["--status", "4xx", "--path", "/v1/payments", "--method", "post", "--error-code", "VALIDATION_ERROR", "--interval", "2"], env);
    expect(args).not.toBe(HELP);
    expect(args).toMatchObject({ filters: { status: "4xx", path: "/v1/payments", method: "POST", errorCode: "VALIDATION_ERROR" }, intervalMs: 2000 });
    expect(parseLogsTail(["--help"], env)).toBe(HELP);
  });

  it("refuses malformed filters with one line that says what to do", () => {
    for (const argv of [["--status", "6xx"], ["--path", "payments"], ["--method", "FETCH"], ["--error-code", "bad code"], ["--interval", "0"], ["--nope"]]) {
      expect(() => parseLogsTail(argv, env), argv.join(" ")).toThrow(UsageError);
    }
    expect(() => parseLogsTail([], {})).toThrow(/an API key is required/);
  });

  it("prints one line per request with what matters for debugging", () => {
    const line = formatRequestLine({
      requestId: "r-1",
      createdAt: "2026-11-25T10:00:00.000Z",
      method: "POST",
      path: "/v1/payments",
      query: null,
      status: 409,
      errorCode: "IDEMPOTENCY_CONFLICT",
      idempotencyKey: "order-1",
      replayed: false,
      latencyMs: 7,
    });
    expect(line).toBe("2026-11-25T10:00:00.000Z  POST  /v1/payments  409  7 ms  req r-1  idem order-1  IDEMPOTENCY_CONFLICT");
    expect(
      formatRequestLine({
        requestId: "r-2",
        createdAt: "t",
        method: "GET",
        path: "/v1/payments",
        query: "limit=5",
        status: 200,
        errorCode: null,
        idempotencyKey: "k",
        replayed: true,
        latencyMs: 1,
      }),
    ).toContain("/v1/payments?limit=5  200  1 ms  req r-2  idem k (replayed)");
  });
});
