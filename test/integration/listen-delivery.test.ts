import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { chaosPlan } from "@/lib/contract/callbacks/chaos";
import { baseUrl, db, eventually, forwardTokenOf, issueApiKey, newMerchant } from "../support/fixtures";
import { concludePayments, eventIdsOf, forwardReport, listen, waitForLine, type Running } from "../support/listener";
import { startRobustReceiver } from "../../scripts/harness/robust-receiver";
import { waitUntil } from "../../scripts/harness/wait";
import { assertPresent } from "../../scripts/harness/present";

// `sandpiper listen` delivers at least once to the developer's receiver (docs/callbacks.md "sandpiper listen",
// "Delivery to your receiver"): real processes (the built service, a listener process, receivers on loopback that
// follow the receiver rules of docs/guides/receive-and-verify-callbacks.md). A receiver that answers 500, a receiver that is down across several refused attempts, a listener
// stopped while a forward is failing: every event reaches the receiver with a 2xx, none is processed twice, and
// all of it without restarting the listener (but for the case that restarts it on purpose).

function stateFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "listen-delivery-")), "state.json");
}

async function stop(run: Running): Promise<void> {
  run.child.kill("SIGTERM");
  expect(await run.exited).toBe(0);
}

it("retries a receiver that answers 500 and one that is down across three refused attempts until each event gets a 2xx; nothing lost, nothing processed twice", async () => {
  const m = await newMerchant();
  // Answers 500 to the first two valid copies of every event, then stores it.
  let rx = await startRobustReceiver({ failFirst: 2 });
  const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile()]);
  rx.state.secret = await run.secret;
  await waitForLine(run, /Ready: following/);

  const first = await concludePayments(m, 12);
  const firstEvents = await eventIdsOf(first);
  await eventually(async () => firstEvents.every((id) => rx.state.events.has(id)), 30_000);
  for (const id of firstEvents) {
    expect(rx.state.failed.get(id), "two 500s before the 2xx").toBe(2);
    expect(rx.state.events.get(id), "delivered once: a 2xx is not retried").toBe(1);
  }
  // Each line names its attempt and when the next one comes.
  expect(
    run.lines.some((l) => / -> 500 .*attempt 1, next in \d+\.\d s/.test(l)),
    run.lines.slice(-10).join("\n"),
  ).toBe(true);
  expect(run.lines.some((l) => / -> 200 .*attempt 3\b/.test(l))).toBe(true);

  // The receiver goes down while payments conclude; the listener keeps retrying (no restart) with a growing wait
  // (1 s, 2 s, 4 s, ...): it comes back once a forward has been refused three times.
  const port = rx.port;
  const state = rx.state;
  await rx.close();
  const second = await concludePayments(m, 8);
  const secondEvents = await eventIdsOf(second);
  await waitForLine(run, /no answer \(ECONNREFUSED\) .*attempt 3, next in/);
  expect(
    secondEvents.some((id) => state.events.has(id)),
    "nothing arrived while it was down",
  ).toBe(false);
  rx = await startRobustReceiver({ port, state });
  // Back up: the next retries get through.
  await eventually(async () => secondEvents.every((id) => state.events.has(id)), 45_000);

  // The listener reported every attempt: the event shows its forward, DELIVERED on the third attempt after two 500s.
  await eventually(async () => {
    const shown = await m.api(`/v1/events/${firstEvents[0]}`);
    return shown.body.forwards?.[0]?.state === "DELIVERED" ? shown : null;
  }, 10_000);
  const shown = (await m.api(`/v1/events/${firstEvents[0]}`)).body;
  expect(shown.forwards).toHaveLength(1);
  expect(shown.forwards[0].attempts.map((a: { statusCode: number | null }) => a.statusCode)).toEqual([500, 500, 200]);
  expect(shown.forwards[0].attempts[0].nextAttemptAt).not.toBeNull();
  expect(shown.delivery.state, "forwards never change the delivery").toBe("NOT_CONFIGURED");

  // No event lost, no payment processed twice by a receiver that follows the rules.
  for (const id of [...firstEvents, ...secondEvents]) expect(state.events.has(id), id).toBe(true);
  for (const id of [...first, ...second]) expect(state.processed.get(id), id).toBe(1);
  expect(run.lines.some((l) => /gave up/.test(l))).toBe(false);
  await stop(run);
  await rx.close();
}, 150_000);

it("a listener stopped while a forward is failing forwards that event when it starts again; delivered ones are not sent twice", async () => {
  const m = await newMerchant();
  const file = stateFile();
  let fixed = false;
  const rx = await startRobustReceiver({ failFirst: 1_000, failWhen: (event) => !fixed && event.data.reference.startsWith("stuck-") });
  let run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", file]);
  rx.state.secret = await run.secret;
  await waitForLine(run, /Ready: following/);

  // One event fails for as long as the receiver says so; the events after it are delivered meanwhile.
  const [stuckPayment] = await concludePayments(m, 1, "stuck");
  assertPresent(stuckPayment, "stuckPayment");
  const [stuck] = await eventIdsOf([stuckPayment]);
  assertPresent(stuck, "stuck");
  const later = await concludePayments(m, 4);
  const laterEvents = await eventIdsOf(later);
  await eventually(async () => laterEvents.every((id) => rx.state.events.has(id)), 20_000);
  await eventually(async () => (rx.state.failed.get(stuck) ?? 0) >= 2, 20_000);
  await stop(run);
  const kept = JSON.parse(fs.readFileSync(file, "utf8")) as { cursor: string; delivered?: string[] };
  const stuckPosition = (await db.event.findUniqueOrThrow({ where: { id: stuck } })).position!;
  expect(BigInt(kept.cursor), "the cursor does not pass the event without a 2xx").toBeLessThan(stuckPosition);
  expect(kept.delivered?.length, "the delivered ones behind it are remembered").toBe(4);
  expect(run.lines.join("\n")).toMatch(/1 not delivered yet: they are forwarded again on the next start/);

  // The receiver is fixed; the listener starts again and delivers the stuck event, and only that one.
  fixed = true;
  const before = rx.state.events.size;
  run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", file]);
  await eventually(async () => rx.state.events.has(stuck), 20_000);
  // waits on purpose: a second forward of an accepted event would follow the first within it
  await new Promise((r) => setTimeout(r, 1000));
  expect(rx.state.events.size).toBe(before + 1);
  for (const id of laterEvents) expect(rx.state.events.get(id), "not forwarded again").toBe(1);
  await eventually(async () => BigInt((JSON.parse(fs.readFileSync(file, "utf8")) as { cursor: string }).cursor) >= stuckPosition, 5_000);
  await stop(run);
  await rx.close();
}, 90_000);

it("with --max-attempts the listener gives up and prints a command that sends the event again", async () => {
  const m = await newMerchant();
  const rx = await startRobustReceiver({ failFirst: 3 });
  const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile(), "--max-attempts", "2"]);
  rx.state.secret = await run.secret;
  await waitForLine(run, /Ready: following/);
  const [payment] = await concludePayments(m, 1);
  assertPresent(payment, "payment");
  const [eventId] = await eventIdsOf([payment]);
  assertPresent(eventId, "eventId");
  await waitForLine(run, new RegExp(`-> 500 .*attempt 2 of 2, giving up`));
  const gaveUp = await waitForLine(
    run,
    new RegExp(`gave up forwarding ${eventId} after 2 attempts; .* sandpiper events resend ${eventId} --api-url ${baseUrl().replace(/[.]/g, "\\.")}`),
  );
  expect(gaveUp).toBeTruthy();
  expect(rx.state.events.has(eventId)).toBe(false);
  // A redelivery (what `sandpiper events resend` asks for) reaches the running listener: attempt 1 of the new
  // item fails once more (the receiver's third 500), attempt 2 gets through.
  const redelivery = await m.api(`/v1/events/${eventId}/redeliver`, { body: {} });
  expect(redelivery.status).toBe(201);
  await eventually(async () => rx.state.events.has(eventId), 20_000);
  await stop(run);
  await rx.close();
}, 60_000);

it("chaos mode switched on and off reaches a running listener within 5 s, with a line each time", async () => {
  const m = await newMerchant();
  const rx = await startRobustReceiver();
  const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile()]);
  rx.state.secret = await run.secret;
  await waitForLine(run, /Ready: following/);

  await db.merchant.update({ where: { id: m.merchant.id }, data: { chaosMode: true } });
  const on = Date.now();
  await waitForLine(run, /Chaos mode is ON/, 5_000);
  expect(Date.now() - on).toBeLessThan(5_000);
  // Injections start: conclude payments until one is injected (about 5 in 10 events get something). Which event
  // gets what is a pure function of its id (chaosPlan), so the lines each one prints are known in advance.
  const injectedLines = (id: string) => run.lines.filter((l) => l.includes(id) && /\[chaos: /.test(l)).length;
  const chaosEvents: string[] = [];
  for (let i = 0; i < 10 && !run.lines.some((l) => /\[chaos: /.test(l)); i++) {
    const events = await eventIdsOf(await concludePayments(m, 3));
    chaosEvents.push(...events);
    await waitUntil(() => events.every((id) => rx.state.events.has(id)), { what: "the round's events forwarded", timeoutMs: 15_000 });
  }
  expect(
    run.lines.some((l) => /\[chaos: /.test(l)),
    "an injection in 30 events",
  ).toBe(true);

  await db.merchant.update({ where: { id: m.merchant.id }, data: { chaosMode: false } });
  const off = Date.now();
  await waitForLine(run, /Chaos mode is OFF/, 5_000);
  expect(Date.now() - off).toBeLessThan(5_000);
  // Delayed chaos forwards and injections of earlier events may still be under way: wait for every one, then count.
  // Each kind of an event's plan (keyed by its id and feed position, lib/domain/events/feed.ts) prints one chaos line: the
  // delay as a tag of the first attempt's line, the others as the injected requests' lines.
  const positions = await db.event.findMany({ where: { id: { in: chaosEvents } }, select: { id: true, position: true } });
  const expected = new Map(positions.map((e) => [e.id, chaosPlan(`${e.id}:${e.position}`, "listener").kinds.length]));
  await waitUntil(() => chaosEvents.every((id) => rx.state.events.has(id) && injectedLines(id) === expected.get(id)), {
    what: "every chaos line of the events forwarded with chaos on",
    timeoutMs: 15_000,
  });
  const injectedBefore = run.lines.filter((l) => /\[chaos: /.test(l)).length;
  const after = await concludePayments(m, 12);
  const afterEvents = await eventIdsOf(after);
  await eventually(async () => afterEvents.every((id) => rx.state.events.has(id)), 15_000);
  // waits on purpose: an injection follows its real forward within it
  await new Promise((r) => setTimeout(r, 500));
  expect(run.lines.filter((l) => /\[chaos: /.test(l)).length, "no injection after the switch-off").toBe(injectedBefore);
  for (const id of afterEvents) expect(rx.state.events.get(id)).toBe(1);
  await stop(run);
  await rx.close();
}, 90_000);

it("recorded forwards: idempotent by forward and attempt, another merchant's events refused, bad bodies 400; the overview counts a listener-delivered event as received", async () => {
  const { overview } = await import("@/lib/domain/reports/overview");
  const { actorOf } = await import("../support/console");
  const m = await newMerchant();
  const other = await newMerchant();
  const [payment] = await concludePayments(m, 1);
  assertPresent(payment, "payment");
  const [eventId] = await eventIdsOf([payment]);
  const [otherPayment] = await concludePayments(other, 1);
  assertPresent(otherPayment, "otherPayment");
  const [otherEvent] = await eventIdsOf([otherPayment]);
  assertPresent(eventId, "eventId");
  assertPresent(otherEvent, "otherEvent");
  const owner = actorOf({ ...m.owner, role: "MERCHANT", merchantId: m.merchant.id });
  const before = await overview(db, owner);
  expect(before.deliveriesNeedingAttention, "NOT_CONFIGURED without a listener").toBe(1);

  const attempt = (n: number, statusCode: number | null, forwardEvent = eventId) =>
    forwardReport({ eventId: forwardEvent, forwardId: "0b1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a11", attempt: n, statusCode });
  const forwardToken = await forwardTokenOf(m.key);
  const first = await m.api("/v1/events/forwards", { body: { forwardToken, forwards: [attempt(1, null), attempt(1, null, otherEvent)] } });
  expect(first.status, first.text).toBe(200);
  expect(first.body).toEqual({ recorded: 1, duplicates: 0, unknownEvents: [otherEvent], refused: [] });
  expect((await m.api(`/v1/events/${eventId}`)).body.forwards[0]).toMatchObject({
    state: "RETRYING",
    attempts: [{ number: 1, statusCode: null, error: "ECONNREFUSED" }],
  });
  const again = await m.api("/v1/events/forwards", { body: { forwardToken, forwards: [attempt(1, null), attempt(2, 200)] } });
  expect(again.body).toEqual({ recorded: 1, duplicates: 1, unknownEvents: [], refused: [] });
  expect((await m.api(`/v1/events/${eventId}`)).body.forwards[0].state).toBe("DELIVERED");
  expect((await other.api(`/v1/events/${otherEvent}`)).body.forwards, "nothing recorded on another merchant's event").toEqual([]);
  const bad = await m.api("/v1/events/forwards", { body: { forwardToken, forwards: [{ ...attempt(3, 200), signature: "XYZ" }] } });
  expect(bad.status).toBe(400);
  expect(bad.body.error.code).toBe("VALIDATION_ERROR");

  const after = await overview(db, owner);
  expect(after.deliveriesNeedingAttention, "a listener delivered it: no false alarm").toBe(0);
  expect(after.deliveredByListener).toBe(1);
}, 60_000);

it("a kept cursor past the merchant's feed (from before positions were per merchant): the listener says so and follows from the newest", async () => {
  const m = await newMerchant();
  const file = stateFile();
  fs.writeFileSync(file, JSON.stringify({ apiUrl: baseUrl(), cursor: "987654", updatedAt: new Date().toISOString() }));
  const rx = await startRobustReceiver({ failFirst: 0 });
  const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", file]);
  rx.state.secret = await run.secret;
  await waitForLine(run, /the service's feed ends at position 0, before the kept position 987654: following from 0/);
  const [payment] = await concludePayments(m, 1);
  assertPresent(payment, "payment");
  const [eventId] = await eventIdsOf([payment]);
  assertPresent(eventId, "eventId");
  await eventually(async () => rx.state.events.has(eventId), 20_000);
  await eventually(async () => (JSON.parse(fs.readFileSync(file, "utf8")) as { cursor: string }).cursor === "1", 5_000);
  await stop(run);
  await rx.close();
}, 60_000);

it("a read-only key's listener forwards every event but records none on the service, and says so once", async () => {
  const m = await newMerchant();
  const readOnly = await issueApiKey(db, { merchantId: m.merchant.id, ownerId: m.owner.id, scopes: ["payments:read"] });
  const rx = await startRobustReceiver({ failFirst: 1 });
  const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", readOnly.key, "--state-file", stateFile()]);
  rx.state.secret = await run.secret;
  await waitForLine(run, /forward attempts are not recorded on the service: the key lacks the sandbox:simulate scope/);
  const events = await eventIdsOf(await concludePayments(m, 2));
  await eventually(async () => events.every((id) => rx.state.events.has(id)), 20_000);
  await stop(run);
  expect(await db.listenerForward.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  expect(run.lines.filter((l) => /not recorded on the service/.test(l))).toHaveLength(1);
  expect(run.lines.join("\n")).not.toMatch(/did not record/);
  await rx.close();
}, 60_000);

it("--retry-schedule service retries on the merchant's callback schedule (fast retries: 0.5 s, then 2 s) and says so; a key without sandbox:simulate is told what it needs", async () => {
  const m = await newMerchant();
  expect((await m.api("/v1/sandbox/settings", { method: "PUT", body: { fastRetries: true } })).status).toBe(200);
  const rx = await startRobustReceiver({ failFirst: 2 });
  const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile(), "--retry-schedule", "service"]);
  rx.state.secret = await run.secret;
  await waitForLine(
    run,
    /retried on the service's callback schedule with fast retries \(waits 0\.5 s, 2 s, 5 s, 10 s, 20 s, 40 s, 60 s, each within 10%\), up to 8 attempts, as the service would/,
  );
  await waitForLine(run, /Ready: following/);
  const [payment] = await concludePayments(m, 1);
  assertPresent(payment, "payment");
  const [eventId] = await eventIdsOf([payment]);
  assertPresent(eventId, "eventId");
  await eventually(async () => rx.state.events.has(eventId), 20_000);
  // The lines name the service's waits: 0.5 s after attempt 1, 2 s after attempt 2 (each within 10%).
  expect(run.lines.find((l) => /-> 500 .*attempt 1, next in/.test(l))).toMatch(/next in 0\.[56] s/);
  expect(run.lines.find((l) => /-> 500 .*attempt 2, next in/.test(l))).toMatch(/next in (1\.[89]|2\.[0-2]) s/);
  // The recorded forward shows the same schedule: each attempt's next attempt is the service's wait after it.
  const [forward] = await eventually(async () => {
    const forwards = (await m.api(`/v1/events/${eventId}`)).body.forwards;
    return forwards?.[0]?.state === "DELIVERED" ? forwards : null;
  }, 15_000);
  const gaps = forward.attempts.slice(0, 2).map((a: { startedAt: string; nextAttemptAt: string }) => Date.parse(a.nextAttemptAt) - Date.parse(a.startedAt));
  expect(gaps[0]).toBeGreaterThanOrEqual(440);
  expect(gaps[0]).toBeLessThan(800);
  expect(gaps[1]).toBeGreaterThanOrEqual(1_790);
  expect(gaps[1]).toBeLessThan(2_400);
  await stop(run);
  await rx.close();

  const readOnly = await issueApiKey(db, { merchantId: m.merchant.id, ownerId: m.owner.id, scopes: ["payments:read"], name: "listen read-only" });
  const refused = listen([
    "--forward-to",
    rx.url,
    "--api-url",
    baseUrl(),
    "--api-key",
    readOnly.key,
    "--state-file",
    stateFile(),
    "--retry-schedule",
    "service",
  ]);
  expect(await refused.exited).toBe(1);
  expect(refused.lines.join("\n")).toMatch(/--retry-schedule service reads your merchant's fast retries setting: use a key with the sandbox:simulate scope/);
}, 60_000);
