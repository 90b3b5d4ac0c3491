import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/db.mjs";
import { realInstant } from "@/lib/platform/clock";
import { deliverDueCallbacks, WAIT_CHUNK } from "@/lib/domain/callbacks/deliver";
import { requeueDeliveries } from "@/lib/domain/callbacks/deliveries";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { refusalWaitMs } from "@/lib/domain/callbacks/refusing-addresses";
import { db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { startReceiver } from "../support/receiver";

// docs/callbacks.md "An address that refuses connections", against a real loopback port nothing listens on. The
// deliveries are parked as in callbacks.test.ts: written while the merchant has no address, then requeued due one day
// ahead, so the running service's driver (real clock) never finds them due and only this test's worker sends them.

const DAY = 86_400_000;
const servers: http.Server[] = [];
const receivers: { close: () => Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((ok) => s.close(ok))));
  await Promise.all(receivers.map((r) => r.close()));
});

/** A loopback port that nothing listens on: a free one, opened and closed again (scripts/db.mjs). */
const closedPort = async (): Promise<number> => (await freePort()) as number;

describe("deliveries to an address that refuses connections", () => {
  it("one attempt is made and recorded; the rest wait without an attempt, then all are delivered once the address listens", async () => {
    const m = await newMerchant();
    for (let i = 0; i < 4; i++) {
      const created = await m.api("/v1/payments", { body: depositBody() });
      expect(created.status).toBe(201);
      expect((await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
    }
    const port = await closedPort();
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: `http://127.0.0.1:${port}/hook` });
    const due = new Date(Date.now() + DAY);
    expect(await requeueDeliveries(db, { merchantId: m.merchant.id, now: due })).toBe(4);
    const pending = () => db.delivery.findMany({ where: { merchantId: m.merchant.id, state: "PENDING" }, include: { attempts: true } });
    const deliveryIds = (await pending()).map((d) => d.id);
    expect(deliveryIds).toHaveLength(4);
    const ofRun = (rows: Awaited<ReturnType<typeof pending>>) => rows.filter((d) => deliveryIds.includes(d.id));

    const first = await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(due) });
    expect(first).toMatchObject({ claimed: 4, retrying: 4, succeeded: 0, failed: 0 });
    const afterRefusal = ofRun(await pending());
    const attempted = afterRefusal.filter((d) => d.attempts.length > 0);
    expect(attempted).toHaveLength(1);
    expect(attempted[0]!.attempts).toHaveLength(1);
    expect(attempted[0]!.attempts[0]!.error).toContain("ECONNREFUSED");
    expect(attempted[0]!.attemptCount).toBe(1);
    // The probe follows the retry schedule (30 s, jitter); the others were not sent: no attempt, none counted, and
    // they wait for the address's refusal wait.
    const waitUntil = due.getTime() + refusalWaitMs(1);
    for (const d of afterRefusal.filter((r) => r.attempts.length === 0)) {
      expect(d.attemptCount).toBe(0);
      expect(d.nextAttemptAt?.getTime()).toBe(waitUntil);
      // It says why it waits, and keeps its own schedule's time for when the address listens again.
      expect(d.waitingSince?.getTime()).toBe(due.getTime());
      expect(d.ownAttemptAt?.getTime()).toBe(due.getTime());
    }

    // While the wait lasts a run sends nothing (the probe's own retry may come due first: it waits too).
    const during = await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(new Date(waitUntil - 1)) });
    expect(during.outcomes.filter((o) => o.attempt !== null)).toEqual([]);
    expect(await db.deliveryAttempt.count({ where: { deliveryId: { in: deliveryIds } } })).toBe(1);

    // The address listens again: every delivery is sent and delivered.
    let received = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received++;
        res.writeHead(200).end("ok");
      });
    });
    servers.push(server);
    await new Promise<void>((ok) => server.listen(port, "127.0.0.1", ok));
    // This process's probe finds it listening within about a second and releases the waiting deliveries, each to
    // its own schedule's time (here `due`, a day ahead), never earlier.
    await eventually(async () => (await db.delivery.count({ where: { id: { in: deliveryIds }, waitingSince: { not: null } } })) === 0, 5_000);
    const released = ofRun(await pending()).filter((d) => d.attempts.length === 0);
    expect(released.map((d) => d.nextAttemptAt?.getTime())).toEqual([due.getTime(), due.getTime(), due.getTime()]);
    expect(released.map((d) => d.ownAttemptAt)).toEqual([null, null, null]);
    const later = new Date(due.getTime() + 2 * refusalWaitMs(1) + 60_000);
    await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(later) });
    expect(received).toBe(4);
    const delivered = await db.delivery.findMany({ where: { id: { in: deliveryIds } }, include: { attempts: true } });
    expect(delivered.map((d) => d.state)).toEqual(["SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "SUCCEEDED"]);
    expect(delivered.map((d) => d.attempts.length).sort()).toEqual([1, 1, 1, 2]);
  });

  it("a backlog larger than one statement's share all waits: every delivery not sent is moved to the wait's end, in turns", async () => {
    const m = await newMerchant();
    const created = await m.api("/v1/payments", { body: depositBody() });
    expect((await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
    const port = await closedPort();
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: `http://127.0.0.1:${port}/hook` });
    const due = new Date(Date.now() + DAY);
    expect(await requeueDeliveries(db, { merchantId: m.merchant.id, now: due })).toBe(1);
    const [template] = await db.delivery.findMany({ where: { merchantId: m.merchant.id } });
    if (!template) throw new Error("no delivery to copy");
    // Copies of the event and its delivery (as bench/support.ts insertDueDeliveryCopies makes them), due at `due`.
    const copies = WAIT_CHUNK + 1_234;
    await db.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(
          `CREATE TEMP TABLE backlog_ids ON COMMIT DROP AS SELECT gen_random_uuid() AS event_id, gen_random_uuid() AS delivery_id FROM generate_series(1, ${copies})`,
        );
        await tx.$executeRawUnsafe(
          `INSERT INTO events SELECT (jsonb_populate_record(NULL::events, to_jsonb(e) || jsonb_build_object('id', b.event_id, 'payment_id', NULL, 'seq', NULL,
           'position', NULL, 'feed_tx', txid_current(), 'feed_order', nextval('feed_insert_order')))).*
         FROM deliveries d JOIN events e ON e.id = d.event_id, backlog_ids b WHERE d.id = '${template.id}'`,
        );
        await tx.$executeRawUnsafe(
          `INSERT INTO deliveries SELECT (jsonb_populate_record(NULL::deliveries, to_jsonb(d) || jsonb_build_object('id', b.delivery_id, 'event_id', b.event_id))).*
         FROM deliveries d, backlog_ids b WHERE d.id = '${template.id}'`,
        );
      },
      { timeout: 60_000 },
    ); // thousands of rows: a loaded machine takes longer than Prisma's default 5 s

    await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(due) });
    const waitUntil = new Date(due.getTime() + refusalWaitMs(1));
    const unsent = { merchantId: m.merchant.id, state: "PENDING" as const, attemptCount: 0 };
    expect(await db.delivery.count({ where: { ...unsent, nextAttemptAt: waitUntil } })).toBe(copies);
    expect(await db.delivery.count({ where: { ...unsent, NOT: { nextAttemptAt: waitUntil } } })).toBe(0);
    expect(await db.deliveryAttempt.count({ where: { delivery: { merchantId: m.merchant.id } } })).toBe(1);
  });
});

describe("a receiver that comes back (the running service's delivery job and probe, a real receiver process port)", () => {
  /** A payment of `m` created and concluded SUCCEEDED: its event goes to the merchant's callback address. */
  async function concluded(m: TestMerchant): Promise<string> {
    const created = await m.api("/v1/payments", { body: depositBody() });
    expect(created.status).toBe(201);
    expect((await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
    return created.body.id;
  }
  const deliveryOf = (paymentId: string) =>
    db.delivery.findFirstOrThrow({ where: { event: { paymentId } }, include: { attempts: { orderBy: { number: "asc" } } } });

  it.each([1, 8])(
    "after %i refusal(s) in a row: a callback concluded once the receiver listens arrives within 2 s, the waiting one too, and the wait is shown until then",
    async (refusals) => {
      const m = await newMerchant();
      const port = await closedPort();
      await setCallbackUrl(db, { merchantId: m.merchant.id, url: `http://127.0.0.1:${port}/hook` });

      // The first callback is attempted and refused; asking for attempts now adds refusals in a row (each is a real
      // attempt, made at once although the address is known to refuse).
      const first = (await deliveryOf(await concluded(m))).id;
      for (let n = 1; n <= refusals; n++) {
        if (n > 1) expect((await m.api(`/v1/sandbox/deliveries/${first}/attempt`, { method: "POST" })).status).toBe(200);
        const attempts = await eventually(async () => {
          const d = await db.delivery.findUniqueOrThrow({ where: { id: first }, include: { attempts: true } });
          return d.attempts.length === n ? d.attempts : null;
        });
        expect(attempts.every((a) => a.error?.includes("ECONNREFUSED"))).toBe(true);
      }

      // A callback concluded while the address refuses is not sent: it waits, and says why in the Events API.
      const waitingPayment = await concluded(m);
      const waitingEvent = (await m.api(`/v1/events?paymentId=${waitingPayment}`)).body.items[0].id as string;
      const shown = await eventually(async () => {
        const d = (await m.api(`/v1/events/${waitingEvent}`)).body.delivery.deliveries[0];
        return d?.waiting ? d : null;
      });
      expect(shown.waiting).toMatch(/^address refused connections since \d{4}-\d\d-\d\dT[\d:.]+Z$/);
      expect(shown.attempts).toEqual([]);
      expect(shown.state).toBe("PENDING");

      // The receiver comes back on its port: the waiting callback and one concluded now both arrive within 2 s.
      const receiver = await startReceiver(undefined, port);
      receivers.push(receiver);
      const listening = Date.now();
      const next = await concluded(m);
      const concludedAt = Date.now();
      const nextEvent = (await m.api(`/v1/events?paymentId=${next}`)).body.items[0].id as string;
      const arrival = (eventId: string) =>
        eventually(async () => receiver.received.find((r) => r.headers["x-service-event-id"] === eventId)?.at ?? null, 10_000);
      expect((await arrival(nextEvent)) - concludedAt).toBeLessThanOrEqual(2_000);
      expect((await arrival(waitingEvent)) - listening).toBeLessThanOrEqual(2_000);
      // Recorded once the receiver's answer is in: no longer waiting.
      const delivered = await eventually(async () => {
        const d = (await m.api(`/v1/events/${waitingEvent}`)).body.delivery.deliveries[0];
        return d.state === "SUCCEEDED" ? d : null;
      });
      expect(delivered.waiting).toBeUndefined();
    },
  );
});
