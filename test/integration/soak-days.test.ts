import { expect, it } from "vitest";
import { baseUrl } from "../support/fixtures";
import { runSoak } from "../../scripts/harness/soak";

// A soak over simulated weeks (scripts/harness/soak.ts): 36 simulated days across a month's end with a light load per
// day, every check of the engine at every day (creates in every currency, daily and monthly limits and a velocity
// window rolling over, expiry doing what is due and nothing else, nothing stuck, the ledger and every counter equal
// to a recount, the request log's retention). Its own merchants, so it runs beside the other files.
// bench/soak-days.ts runs the same engine longer and heavier. SOAK_LOG=1 prints a line per simulated day.

it("36 simulated days: traffic of every kind, and every check holds at every day", async () => {
  const result = await runSoak({
    baseUrl: baseUrl(),
    days: 36,
    perDay: 0,
    log: process.env.SOAK_LOG ? (l) => console.log(l) : undefined,
  });
  expect(result.days).toBe(36);
  expect(result.monthEnds, `${result.firstDay} .. ${result.lastDay}`).toBeGreaterThanOrEqual(1);
  // The probes met their limits and windows and were accepted again after them.
  expect(result.refused.DAILY_LIMIT).toBeGreaterThan(0);
  expect(result.refused.MONTHLY_LIMIT).toBeGreaterThan(0);
  expect(result.refused.RISK_REJECTED).toBeGreaterThan(0);
  expect(result.rollovers.daily).toBeGreaterThan(0);
  expect(result.rollovers.monthly).toBeGreaterThan(0);
  expect(result.rollovers.velocity).toBe(35);
  // Every kind of traffic happened and ended where it should.
  expect(result.payments.byStatus).toMatchObject({ SUCCEEDED: expect.any(Number), FAILED: expect.any(Number), EXPIRED: expect.any(Number) });
  expect(result.checkoutSessions.EXPIRED).toBe(36 * 3);
  expect(result.storeCheckouts).toMatchObject({ SUCCEEDED: 36, FAILED: 36, EXPIRED: 36 });
  expect(result.callbacks.retried).toBeGreaterThan(0);
  expect(result.listener.receiverFailures).toBeGreaterThan(0);
  expect(result.listener.forwarded).toBe(result.callbacks.events);
  expect(result.listener.foreign).toBe(0);
  expect(result.requestLog.pruned).toBeGreaterThan(0);
}, 600_000);
