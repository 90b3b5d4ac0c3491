import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formToObject } from "@/lib/application/console/forms";
import { checkbox, checkboxGroup, optionalAmountMinor } from "@/lib/contract/schemas/forms/fields";
import { formatBps, pageParam } from "@/lib/application/console/format";
import { auditValue } from "@/lib/domain/audit";

describe("console form parsing", () => {
  it("keeps repeated names as arrays and drops framework fields", () => {
    const form = new FormData();
    form.append("scopes", "payments:read");
    form.append("scopes", "sandbox:simulate");
    form.append("name", "ci");
    form.append("$ACTION_ID_abc", "");
    expect(formToObject(form)).toEqual({ scopes: ["payments:read", "sandbox:simulate"], name: "ci" });
  });

  it("checkboxes, checkbox groups and optional amounts", () => {
    const schema = z.object({
      on: checkbox,
      off: checkbox,
      one: checkboxGroup(["A", "B"] as const),
      none: checkboxGroup(["A"] as const),
      limit: optionalAmountMinor,
      empty: optionalAmountMinor,
    });
    expect(schema.parse({ on: "on", one: "B", limit: " 1000.5 ", empty: "" })).toEqual({
      on: true,
      off: false,
      one: ["B"],
      none: [],
      limit: 100050n,
      empty: null,
    });
    expect(schema.safeParse({ one: "C", limit: "1,000" }).success).toBe(false);
  });
});

describe("console display helpers", () => {
  it("formats basis points without floating point", () => {
    expect([formatBps(250), formatBps(5), formatBps(0), formatBps(10_000), formatBps(null)]).toEqual(["2.50 %", "0.05 %", "0.00 %", "100.00 %", "—"]);
    expect([pageParam("3"), pageParam("0"), pageParam("x"), pageParam(undefined)]).toEqual([3, 1, 1, 1]);
  });

  it("audit values: bigint as text, secrets redacted", () => {
    expect(auditValue({ a: 5n, callbackSecret: "whsec_1", passwordHash: "$argon2id$", nested: { token: "t", keep: "k" } })).toEqual({
      a: "5",
      callbackSecret: "[redacted]",
      passwordHash: "[redacted]",
      nested: { token: "[redacted]", keep: "k" },
    });
    expect(auditValue(undefined)).toBeNull();
  });
});
