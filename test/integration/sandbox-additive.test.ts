import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { newMerchant, type TestMerchant } from "../support/fixtures";

// docs/api.md "Scenario rules" and "Sandbox clock": both are additive. A merchant whose rules are all switched off and
// whose clock was moved and reset gets exactly the answers of a merchant that never touched either: the same status,
// the same members with the same values (ids, references and times aside), and neither `scenario`, `failure` nor
// `sandboxClock`. A property over payment requests, sent side by side to both merchants over real HTTP.

/** A payment answer with what differs between two merchants by nature (ids, references, times) masked. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value === "string") return value.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, /^(id|reference|requestId)$|Id$|At$/.test(k) && v !== null ? `<${k}>` : comparable(v)]));
}

/** A merchant that has switched every rule off again and moved its clock and reset it. */
async function touchedMerchant(): Promise<TestMerchant> {
  const m = await newMerchant();
  const added = await m.api("/v1/sandbox/scenario-rules/standard", { body: {} });
  expect(added.status, added.text).toBe(200);
  const rules = (await m.api("/v1/sandbox/scenario-rules", { method: "GET" })).body.items as { id: string; enabled: boolean }[];
  expect(rules.length).toBeGreaterThan(0);
  for (const rule of rules) expect((await m.api(`/v1/sandbox/scenario-rules/${rule.id}`, { method: "PATCH", body: { enabled: false } })).status).toBe(200);
  expect((await m.api("/v1/sandbox/clock/advance", { body: { by: "3h" } })).status).toBe(200);
  expect((await m.api("/v1/sandbox/clock/reset", { body: {} })).body).toMatchObject({ offsetMs: 0 });
  return m;
}

// Amounts include the standard set's magic values, which must do nothing while the rules are off.
const amount = fc.oneof(
  fc.constantFrom("13.13", "14.14", "15.15", "1.00", "0.01"),
  fc.integer({ min: 1, max: 500_000 }).map((cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`),
);
type PaymentRequest = { amount: string; currency: string; method: string; direction: string; referencePrefix: string; outcome: string };
const request: fc.Arbitrary<PaymentRequest> = fc
  .record({
    amount,
    currency: fc.constantFrom("USD", "AED", "EUR"),
    route: fc.constantFrom<[string, string]>(["GATEWAY", "DEPOSIT"], ["BANK_TRANSFER", "DEPOSIT"], ["BANK_TRANSFER", "WITHDRAWAL"], ["GATEWAY", "WITHDRAWAL"]),
    referencePrefix: fc.constantFrom("order-", "fail-", "ok-", "slow-"),
    outcome: fc.constantFrom("SUCCEEDED", "FAILED"),
  })
  .map(({ route: [method, direction], ...rest }) => ({ ...rest, method, direction }));

describe("with rules off and the clock reset, the API answers as if neither existed", () => {
  it("creates, reads and completions answer alike for both merchants, without scenario or sandboxClock", async () => {
    const plain = await newMerchant();
    const touched = await touchedMerchant();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ referencePrefix, outcome, ...body }) => {
        n++;
        const answers = [];
        for (const m of [plain, touched]) {
          const created = await m.api("/v1/payments", { body: { ...body, reference: `${referencePrefix}${n}` } });
          const steps = [created];
          if (created.status === 201) {
            steps.push(await m.api(`/v1/payments/${created.body.id}`, { method: "GET" }));
            if (created.body.status === "PENDING") steps.push(await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome } }));
          }
          for (const s of steps) {
            expect(s.body).not.toHaveProperty("failure");
            expect(s.body).not.toHaveProperty("scenario");
            expect(s.body).not.toHaveProperty("sandboxClock");
          }
          answers.push(steps.map((s) => ({ status: s.status, body: comparable(s.body) })));
        }
        expect(answers[1]).toEqual(answers[0]);
      }),
      {
        numRuns: 20,
        // Every rule of the standard set is met at least once, whatever the random draws.
        examples: [
          ...["13.13", "14.14", "15.15"].map((amount): [PaymentRequest] => [
            { amount, currency: "USD", method: "GATEWAY", direction: "DEPOSIT", referencePrefix: "order-", outcome: "SUCCEEDED" },
          ]),
          ...["fail-", "ok-", "slow-"].map((referencePrefix): [PaymentRequest] => [
            { amount: "20.00", currency: "AED", method: "BANK_TRANSFER", direction: "DEPOSIT", referencePrefix, outcome: "FAILED" },
          ]),
        ],
      },
    );
  }, 120_000);
});
