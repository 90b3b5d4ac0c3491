import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { baseUrl, db, eventually, forwardTokenOf, newMerchant, type TestMerchant } from "../support/fixtures";
import { concludePayments, eventIdsOf, forwardReport, listen, waitForLine } from "../support/listener";
import { startRobustReceiver } from "../../scripts/harness/robust-receiver";
import { assertPresent } from "../../scripts/harness/present";

// `sandpiper listen` under a moved sandbox clock (docs/callbacks.md "Forwards on the service", docs/api.md "Sandbox
// clock"): the listener's attempts are real time and the service checks them against the real time its events were
// recorded, never against their createdAt (the merchant's sandbox time). One attempt that cannot be this session's
// is refused alone: the rest of its batch is recorded and the answer says which and why.

const H = 3_600_000;
const advance = async (m: TestMerchant, by: string) => {
  const moved = await m.api("/v1/sandbox/clock/advance", { body: { by } });
  expect(moved.status, moved.text).toBe(200);
  return moved.body.offsetMs as number;
};

it("forwards of events made under a clock moved 2 h, then 35 days, are all recorded; the overview counts them as received", async () => {
  const { overview } = await import("@/lib/domain/reports/overview");
  const { actorOf } = await import("../support/console");
  const m = await newMerchant();
  const rx = await startRobustReceiver({ failFirst: 1 });
  const run = listen([
    "--forward-to",
    rx.url,
    "--api-url",
    baseUrl(),
    "--api-key",
    m.key,
    "--state-file",
    path.join(fs.mkdtempSync(path.join(os.tmpdir(), "listen-clock-")), "state.json"),
  ]);
  rx.state.secret = await run.secret;
  await waitForLine(run, /Ready: following/);

  const all: string[] = [];
  for (const [by, offsetMs] of [
    ["2h", 2 * H],
    ["34d22h", 35 * 24 * H],
  ] as const) {
    expect(await advance(m, by)).toBe(offsetMs);
    const events = await eventIdsOf(await concludePayments(m, 3, `clock-${by}`));
    all.push(...events);
    await eventually(async () => events.every((id) => rx.state.events.has(id)), 30_000);
    for (const id of events) {
      const shown = await eventually(async () => {
        const event = (await m.api(`/v1/events/${id}`)).body;
        return event.forwards?.[0]?.attempts?.length === 2 ? event : null;
      }, 15_000);
      expect(Date.parse(shown.createdAt), "the event carries the sandbox time").toBeGreaterThan(Date.now() + offsetMs - H);
      expect(shown.forwards[0]).toMatchObject({ state: "DELIVERED", attempts: [{ statusCode: 500 }, { statusCode: 200 }] });
    }
  }
  expect(
    run.lines.filter((l) => /did not record/.test(l)),
    "every report taken",
  ).toEqual([]);
  const recorded = await db.listenerForward.count({ where: { eventId: { in: all } } });
  expect(recorded, "two attempts of each event").toBe(all.length * 2);
  const owner = actorOf({ ...m.owner, role: "MERCHANT", merchantId: m.merchant.id });
  const figures = await overview(db, owner);
  expect(figures.deliveriesNeedingAttention, "every event reached the receiver through the listener").toBe(0);
  expect(figures.deliveredByListener).toBe(all.length);
  run.child.kill("SIGTERM");
  expect(await run.exited).toBe(0);
  await rx.close();
}, 90_000);

it("one attempt that cannot be this session's is refused alone: the rest of the batch is recorded and the answer says which and why", async () => {
  const m = await newMerchant();
  await advance(m, "2h");
  const [first, second] = await eventIdsOf(await concludePayments(m, 2, "refused"));
  assertPresent(first, "first");
  assertPresent(second, "second");
  const forwardToken = await forwardTokenOf(m.key);
  const late = forwardReport({ eventId: second, statusCode: 500, startedAt: new Date(Date.now() - 3 * H) });
  const sandboxTimed = forwardReport({ eventId: second, attempt: 2, startedAt: new Date(Date.now() + 2 * H) });
  const batch = [forwardReport({ eventId: first }), late, sandboxTimed, forwardReport({ eventId: second, forwardId: late.forwardId, attempt: 3 })];
  const res = await m.api("/v1/events/forwards", { body: { forwardToken, forwards: batch } });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({
    recorded: 2,
    duplicates: 0,
    unknownEvents: [],
    refused: [
      { index: 1, forwardId: late.forwardId, attempt: 1, reason: expect.stringMatching(/^startedAt lies before the event was recorded \(.+, real time\)$/) },
      { index: 2, forwardId: sandboxTimed.forwardId, attempt: 2, reason: expect.stringMatching(/^startedAt lies after now or the forward token's end/) },
    ],
  });
  expect((await m.api(`/v1/events/${first}`)).body.forwards).toMatchObject([{ state: "DELIVERED" }]);
  expect((await m.api(`/v1/events/${second}`)).body.forwards).toMatchObject([{ id: late.forwardId, attempts: [{ number: 3, statusCode: 200 }] }]);

  // A bad token still refuses the whole batch, with the code, the message and the requestId.
  const bad = await m.api("/v1/events/forwards", { body: { forwardToken: `${forwardToken}x`, forwards: [forwardReport({ eventId: first })] } });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatchObject({ code: "VALIDATION_ERROR", requestId: expect.any(String) });
  expect(await db.listenerForward.count({ where: { eventId: { in: [first, second] } } }), "nothing of the refused batch").toBe(2);
}, 60_000);
