// Raw reads check their rows with a zod schema (lib/platform/db.ts parseRow): a column renamed in SQL and not in the schema, or
// back, is refused with an error naming the field, instead of reaching the code as undefined.
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { parseRow, parseRows } from "@/lib/platform/db";
import { ClaimRow } from "@/lib/domain/callbacks/deliver";
import { FeedRow } from "@/lib/domain/events/feed";
import { ActiveRulesRow } from "@/lib/domain/risk/velocity";
import { ClockOffsetRow } from "@/lib/simulators/sandbox-clock/clock";

/** A feed row as the driver gives it (snake_case columns, int8 as BigInt, timestamptz as Date). */
const feedRow = () => ({
  position: 7n,
  kind: "event",
  event_id: "0b9a8c1e-1f6e-4a53-9d43-3c0f9c4b2a11",
  type: "payment.succeeded",
  created_at: new Date("2026-01-05T10:00:00Z"),
  payment_id: null,
  body: "{}",
});

/** A delivery claim row as the driver gives it. */
const claimRow = () => ({
  id: "5b1f4a0c-8b8e-4f7a-9a4e-2f2d7c3b9e10",
  event_id: "0b9a8c1e-1f6e-4a53-9d43-3c0f9c4b2a11",
  merchant_id: "9f3a1d52-6c0b-4e8e-8d1f-7a2b3c4d5e6f",
  chaos_mode: false,
  fast_retries: true,
  attempt_count: 2,
  lease_until: null,
  body: "{}",
  payment_id: null,
  callback_url: "https://merchant.example/callbacks",
  callback_secret: "whsec_test",
  previous_callback_secret: null,
  attempt_asked: false,
});

/** The ZodError `fn` throws (fails the test when it throws nothing or something else). */
function zodErrorOf(fn: () => unknown): ZodError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ZodError);
    return error as ZodError;
  }
  throw new Error("expected a ZodError, nothing was thrown");
}

describe("the feed's row schema (lib/domain/events/feed.ts readFeed)", () => {
  it("renames the columns and keeps their types", () => {
    expect(parseRow(FeedRow, feedRow())).toEqual({
      position: 7n,
      kind: "event",
      eventId: "0b9a8c1e-1f6e-4a53-9d43-3c0f9c4b2a11",
      type: "payment.succeeded",
      createdAt: new Date("2026-01-05T10:00:00Z"),
      paymentId: null,
      body: "{}",
    });
  });

  it("refuses a row whose event_id column was renamed, naming the missing field", () => {
    const { event_id, ...rest } = feedRow();
    const error = zodErrorOf(() => parseRow(FeedRow, { ...rest, id: event_id }));
    expect(error.issues.map((issue) => issue.path.join("."))).toEqual(["eventId"]);
  });

  it("refuses a feed position read as a JS number (int8 must come back as BigInt)", () => {
    const error = zodErrorOf(() => parseRow(FeedRow, { ...feedRow(), position: 7 }));
    expect(error.issues.map((issue) => issue.path.join("."))).toEqual(["position"]);
  });
});

describe("the delivery claim's row schema (lib/domain/callbacks/deliver.ts)", () => {
  it("refuses the batch at a row without callback_secret", () => {
    const { callback_secret: _secret, ...withoutSecret } = claimRow();
    const error = zodErrorOf(() => parseRows(ClaimRow, [claimRow(), withoutSecret]));
    expect(error.issues.map((issue) => issue.path.join("."))).toEqual(["callbackSecret"]);
  });

  it("drops the columns it does not name", () => {
    expect(parseRow(ClaimRow, { ...claimRow(), extra: 1 })).not.toHaveProperty("extra");
  });
});

/** An active velocity rule as activeRulesColumn's JSON gives it (amounts as text). */
const ruleJson = () => ({
  id: "3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98",
  kind: "AMOUNT",
  subject: "EMAIL",
  windowSeconds: 3600,
  maxCount: null,
  maxAmountMinor: "500000",
  currency: "AED",
});

describe("the active velocity rules' row schema (lib/domain/risk/velocity.ts consumeVelocity)", () => {
  it("checks the rules in the same parse, amounts as BigInt", () => {
    expect(parseRow(ActiveRulesRow, { rules: [ruleJson()] }).rules[0]).toMatchObject({ kind: "AMOUNT", maxAmountMinor: 500000n });
  });

  it("refuses a rule whose amount came back as a JSON number (amounts are read as text, never a JS number)", () => {
    const error = zodErrorOf(() => parseRow(ActiveRulesRow, { rules: [ruleJson(), { ...ruleJson(), maxAmountMinor: 500000 }] }));
    expect(error.issues.map((issue) => issue.path.join("."))).toEqual(["rules.1.maxAmountMinor"]);
  });

  it("refuses a row without its rules column", () => {
    const error = zodErrorOf(() => parseRow(ActiveRulesRow, { rule_list: [] }));
    expect(error.issues.map((issue) => issue.path.join("."))).toEqual(["rules"]);
  });
});

describe("the sandbox clock's row schema (lib/simulators/sandbox-clock/clock.ts)", () => {
  it("refuses an offset read as a JS number (int8 must come back as BigInt)", () => {
    expect(parseRow(ClockOffsetRow, { offset: 7_200_000n })).toEqual({ offset: 7_200_000n });
    const error = zodErrorOf(() => parseRow(ClockOffsetRow, { offset: 7_200_000 }));
    expect(error.issues.map((issue) => issue.path.join("."))).toEqual(["offset"]);
  });
});
