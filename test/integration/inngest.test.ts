import { afterAll, describe, expect, it } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import { db, depositBody, newMerchant } from "../support/fixtures";
import { startReceiver } from "../support/receiver";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { requeueDeliveries } from "@/lib/domain/callbacks/deliveries";
import { verifyCallback } from "@/clients/cli/src/verify";
import { DELIVERY_DUE_EVENT } from "@/lib/domain/notify/inngest-client";
import { createInngestFunctions } from "@/lib/application/jobs/inngest";
import { pollingWaits } from "../support/inngest";
import { realInstant } from "@/lib/platform/clock";
import { assertPresent, present } from "../../scripts/harness/present";

// The Inngest functions run in @inngest/test's engine against the real database and a real HTTP receiver.
// Only Inngest's own sleeps are stood in for (a mocked step "wait-..." that moves the functions' clock to
// the time the sleep would end), so no test waits 30 seconds or more. Deliveries are parked as in
// callbacks.test.ts (written while the merchant has no address, requeued due in the future), so the
// running service's embedded driver never races these functions.

const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

/** A clock the test moves. */
function testClock(start: Date) {
  let now = realInstant(start);
  return { now: () => now, set: (t: Date | string) => (now = realInstant(t)) };
}

async function parkedDelivery(url: string, due: Date) {
  const m = await newMerchant();
  const created = (await m.api("/v1/payments", { body: depositBody() })).body;
  expect((await m.api(`/v1/sandbox/payments/${created.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
  const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url });
  expect(await requeueDeliveries(db, { merchantId: m.merchant.id, now: due })).toBe(1);
  const delivery = await db.delivery.findFirstOrThrow({ where: { merchantId: m.merchant.id } });
  return { m, secret, delivery };
}

describe("Inngest functions (@inngest/test)", () => {
  it("deliver-callback: step-based retries, sleeping until the scheduled next attempt, until the receiver accepts", async () => {
    const rx = await startReceiver((_r, i) => ({ status: i === 0 ? 502 : 200 }));
    receivers.push(rx);
    const due = realInstant(Date.now() + 86_400_000);
    const { secret, delivery } = await parkedDelivery(rx.url, due);
    const clock = testClock(due);
    const deliverCallback = createInngestFunctions(clock.now).find((f) => f.opts.id === "deliver-callback")!;
    expect(deliverCallback.id()).toBe("deliver-callback");
    expect(deliverCallback.opts.triggers).toEqual([{ event: DELIVERY_DUE_EVENT }]);

    let sleptUntil: string | null = null;
    const t = new InngestTestEngine({ function: deliverCallback });
    const { result, ctx, error } = await t.execute({
      events: [{ name: DELIVERY_DUE_EVENT, data: { deliveryId: delivery.id } }],
      steps: [
        {
          id: "wait-1",
          handler: async () => {
            // Inngest would resume the run at the next attempt time; the stand-in moves the clock there.
            const d = await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
            sleptUntil = d.nextAttemptAt!.toISOString();
            clock.set(d.nextAttemptAt!);
            return null;
          },
        },
      ],
    });
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ deliveryId: delivery.id, claimed: true, state: "SUCCEEDED", attempt: 2 });
    expect(ctx.step.run).toHaveBeenCalledWith("attempt-1", expect.any(Function));
    expect(ctx.step.run).toHaveBeenCalledWith("attempt-2", expect.any(Function));
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("wait-1", sleptUntil);
    const wait = new Date(sleptUntil!).getTime() - due.getTime();
    expect(wait).toBeGreaterThanOrEqual(30_000);
    expect(wait).toBeLessThanOrEqual(33_000);

    const attempts = await db.deliveryAttempt.findMany({ where: { deliveryId: delivery.id }, orderBy: { number: "asc" } });
    expect(attempts.map((a) => [a.number, a.statusCode])).toEqual([
      [1, 502],
      [2, 200],
    ]);
    expect(rx.received).toHaveLength(2);
    expect(
      verifyCallback(present(rx?.received[1], "rx?.received[1]").body, present(rx?.received[1], "rx?.received[1]").headers, secret, {
        now: new Date(sleptUntil!),
      }),
    ).toMatchObject({
      ok: true,
      eventId: delivery.eventId,
    });
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ state: "SUCCEEDED", attemptCount: 2 });
  });

  it("deliver-callback: an event for a delivery already delivered or unknown sends nothing", async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    const due = realInstant(Date.now() + 86_400_000);
    const { delivery } = await parkedDelivery(rx.url, due);
    const deliverCallback = createInngestFunctions(() => due).find((f) => f.opts.id === "deliver-callback")!;
    // A fresh engine per run: an engine memoises step results across its executions.
    const run = (deliveryId: string) =>
      new InngestTestEngine({ function: deliverCallback }).execute({ events: [{ name: DELIVERY_DUE_EVENT, data: { deliveryId } }] });
    expect((await run(delivery.id)).result).toMatchObject({ claimed: true, state: "SUCCEEDED" });
    expect((await run(delivery.id)).result).toMatchObject({ claimed: false, state: "SUCCEEDED" });
    expect((await run("00000000-0000-4000-8000-000000000000")).result).toMatchObject({ claimed: false, state: null });
    expect((await run("not-a-uuid")).result).toEqual({ deliveryId: null, state: null });
    expect(rx.received).toHaveLength(1);
  });

  it("expire-due-payments: a cron each minute that runs the sweep, sleeps 30 s and runs it again", async () => {
    const m = await newMerchant();
    const created = (await m.api("/v1/payments", { body: depositBody() })).body;
    const expiresAt = new Date(Date.now() + 10_000);
    await db.payment.update({ where: { id: created.id }, data: { expiresAt } });
    const clock = testClock(new Date());
    const expirySweep = createInngestFunctions(clock.now).find((f) => f.opts.id === "expire-due-payments")!;
    expect(expirySweep.opts.triggers).toEqual([{ cron: "* * * * *" }]);

    let statusDuringSleep: string | null = null;
    const t = new InngestTestEngine({ function: expirySweep });
    const { result, ctx, error } = await t.execute({
      steps: [
        {
          id: "wait-1",
          handler: async () => {
            statusDuringSleep = (await db.payment.findUniqueOrThrow({ where: { id: created.id } })).status;
            clock.set(new Date(expiresAt.getTime() + 500)); // the second sweep runs after the acceptance period
            return null;
          },
        },
      ],
    });
    expect(error).toBeUndefined();
    expect(ctx.step.sleep).toHaveBeenCalledWith("wait-1", 30_000);
    expect(ctx.step.sleep).toHaveBeenCalledTimes(1);
    for (const id of ["run-1", "run-2"]) expect(ctx.step.run).toHaveBeenCalledWith(id, expect.any(Function));
    expect(statusDuringSleep).toBe("PENDING");
    expect((result as number[])[1]).toBeGreaterThanOrEqual(1);
    const expired = await db.payment.findUniqueOrThrow({ where: { id: created.id }, include: { events: true } });
    expect(expired.status).toBe("EXPIRED");
    expect(expired.events.map((e) => e.type)).toEqual(["payment.expired"]);
  });

  it("deliver-due-callbacks: the catch-up cron delivers a due delivery nobody announced", async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    // Due in 20 s for the real clock (the running service leaves it alone meanwhile), now for the cron's
    // clock. The window is short on purpose: the cron claims every delivery due by its clock, and other
    // tests park theirs a day ahead.
    const due = realInstant(Date.now() + 20_000);
    const { secret, delivery } = await parkedDelivery(rx.url, due);
    const catchUp = createInngestFunctions(() => due).find((f) => f.opts.id === "deliver-due-callbacks")!;
    expect(catchUp.opts.triggers).toEqual([{ cron: "* * * * *" }]);
    const { result, error } = await new InngestTestEngine({ function: catchUp }).execute({ steps: pollingWaits("deliver-due-callbacks") });
    expect(error).toBeUndefined();
    expect(present((result as { succeeded: number }[])?.[0], "(result as { succeeded: number }[])?.[0]").succeeded).toBeGreaterThanOrEqual(1);
    const [got] = await rx.waitFor(1);
    assertPresent(got, "got");
    expect(verifyCallback(got?.body, got?.headers, secret, { now: due })).toMatchObject({ ok: true, eventId: delivery.eventId });
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ state: "SUCCEEDED", attemptCount: 1 });
  });
});

describe("one job registry", () => {
  it("every job of the registry has its Inngest function of the same id: a cron per polling job, the due event's per event-driven job", async () => {
    const { JOBS } = await import("@/lib/application/jobs/registry");
    const fns = createInngestFunctions();
    expect(fns.map((f) => f.opts.id)).toEqual(JOBS.map((job) => job.id));
    for (const job of JOBS) {
      const fn = fns.find((f) => f.opts.id === job.id)!;
      expect(fn.opts.triggers, job.id).toEqual(job.kind === "polling" ? [{ cron: expect.any(String) }] : [{ event: job.due.name }]);
    }
    expect(fns.map((f) => f.opts.id)).toEqual(
      expect.arrayContaining(["expire-due-payments", "compact-payment-counts", "deliver-due-callbacks", "store-handoffs", "deliver-callback", "store-handoff"]),
    );
    expect(fns.map((f) => f.opts.id)).not.toContain("expiry-sweeps");
  });

  it("compact-payment-counts under Inngest folds pending count changes into payment_counts", async () => {
    const m = await newMerchant();
    expect((await m.api("/v1/payments", { body: depositBody() })).status).toBe(201);
    const fn = createInngestFunctions().find((f) => f.opts.id === "compact-payment-counts")!;
    const { result, error } = await new InngestTestEngine({ function: fn }).execute({ steps: pollingWaits("compact-payment-counts") });
    expect(error).toBeUndefined();
    expect((result as unknown[])[0]).toEqual({ folded: expect.any(Number), vacuumed: expect.any(Boolean) });
    const pending = await db.paymentCountDelta.count({ where: { merchantId: m.merchant.id } });
    const counted = await db.paymentCount.findMany({ where: { merchantId: m.merchant.id, day: "*" } });
    expect(pending).toBe(0);
    expect(counted.reduce((n, r) => n + r.n, 0n)).toBe(1n);
  });
});
