import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CompleteSandboxPayment } from "@/lib/contract/schemas/api/payments";
import { FAILURE_CODE_NAMES, FAILURE_CODES, FailureCode, paymentFailure } from "@/lib/contract/schemas/api/failure-codes";
import { CreateScenarioRule, UpdateScenarioRule } from "@/lib/contract/schemas/api/scenario-rules";

// docs/api.md "Failure codes": the one table in code (lib/contract/schemas/api/failure-codes.ts) is what the docs list, row for
// row, and what the request schemas accept.

const api = fs.readFileSync(path.resolve(__dirname, "../../docs/api.md"), "utf8");

/** The rows of the docs' "Failure codes" table: code, message, what to do, retry later. */
function documentedRows(): string[][] {
  const section = api.split(/^### Failure codes$/m)[1]?.split(/^#{2,3} /m)[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .slice(1, -1)
        .split(" | ")
        .map((cell) => cell.trim()),
    );
}

describe("failure codes", () => {
  it("docs/api.md lists every code of the table, in order, with its message, action and retry answer", () => {
    const expected = FAILURE_CODE_NAMES.map((code) => {
      const info = FAILURE_CODES[code];
      return [`\`${code}\``, info.message, info.merchantAction, info.retryable ? "yes" : "no"];
    });
    expect(documentedRows()).toEqual(expected);
    expect(FAILURE_CODE_NAMES.length).toBeGreaterThanOrEqual(7);
  });

  it("the enumeration is the table's codes; the failure member carries the code's message", () => {
    expect(FailureCode.options).toEqual(Object.keys(FAILURE_CODES));
    expect(paymentFailure("timed_out")).toEqual({ code: "timed_out", message: FAILURE_CODES.timed_out.message });
  });

  it("a failureCode is taken with FAILED only, by the completion and by rules", () => {
    expect(CompleteSandboxPayment.safeParse({ outcome: "FAILED", failureCode: "account_closed" }).success).toBe(true);
    expect(CompleteSandboxPayment.safeParse({ outcome: "FAILED" }).success).toBe(true);
    const succeeded = CompleteSandboxPayment.safeParse({ outcome: "SUCCEEDED", failureCode: "account_closed" });
    expect(succeeded.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["failureCode", "is only for outcome FAILED; leave failureCode out with outcome SUCCEEDED, or send outcome FAILED"],
    ]);
    expect(CompleteSandboxPayment.safeParse({ outcome: "FAILED", failureCode: "Insufficient_Funds" }).success).toBe(false);

    const rule = { name: "r", match: { amount: "1.00" }, failureCode: "risk_declined" };
    expect(CreateScenarioRule.safeParse({ ...rule, outcome: "FAILED" }).success).toBe(true);
    expect(CreateScenarioRule.safeParse({ ...rule, outcome: "EXPIRE" }).success).toBe(false);
    expect(UpdateScenarioRule.safeParse({ failureCode: null }).success).toBe(true);
    expect(UpdateScenarioRule.safeParse({ outcome: "SUCCEEDED", failureCode: null }).success).toBe(true);
    expect(UpdateScenarioRule.safeParse({ outcome: "SUCCEEDED", failureCode: "risk_declined" }).success).toBe(false);
  });
});
