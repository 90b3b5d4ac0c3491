import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { listenerSecret } from "@/lib/contract/callbacks/listener-secret";
import { baseUrl, db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { startReceiver } from "../support/receiver";
import { waitUntil } from "../../scripts/harness/wait";
import { assertPresent } from "../../scripts/harness/present";

// The Events API (docs/callbacks.md "Events API"): list with filters, the commit-ordered `after` cursor, one
// event exactly as delivered with its deliveries, redelivery, the listeners' stream; another merchant's event
// is 404 everywhere.

async function concluded(m: TestMerchant, outcome: "SUCCEEDED" | "FAILED" = "SUCCEEDED") {
  const created = await m.api("/v1/payments", { body: depositBody() });
  expect(created.status, created.text).toBe(201);
  const done = await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome } });
  expect(done.status, done.text).toBe(200);
  const events = await m.api(`/v1/events?paymentId=${created.body.id}`);
  expect(events.body.items).toHaveLength(1);
  return { payment: done.body, event: events.body.items[0] };
}

/** Reads server-sent events from the stream until `until` is satisfied or `timeoutMs` passes. */
/**
 * Reads the SSE stream until `until` holds or `timeoutMs` passes; resolves with the frames seen. `seen` receives them
 * as they arrive (a caller waits on it, e.g. for the ready frame).
 */
async function readStream(
  m: TestMerchant,
  query: string,
  until: (events: { event: string; data: any }[]) => boolean,
  timeoutMs = 10_000,
  seen: { event: string; data: any }[] = [],
) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const res = await fetch(`${baseUrl()}/v1/events/stream${query}`, {
    headers: { authorization: `Bearer ${m.key}`, accept: "text/event-stream" },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  let buffer = "";
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += Buffer.from(chunk).toString("utf8");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1] ?? "message";
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (data) seen.push({ event, data: JSON.parse(data) });
      }
      if (until(seen)) break;
    }
  } catch {
    // aborted by the time limit
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return seen;
}

describe("Events API", () => {
  it("lists events newest first with the envelope exactly as delivered; filters by type, paymentId and Dubai days; pages", async () => {
    const m = await newMerchant();
    const a = await concluded(m, "SUCCEEDED");
    const b = await concluded(m, "FAILED");
    const c = await concluded(m, "SUCCEEDED");
    const all = await m.api("/v1/events");
    expect(all.status).toBe(200);
    expect(all.headers.get("cache-control")).toBe("no-store");
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 20, pages: 1 });
    expect(all.body.items.map((e: { id: string }) => e.id)).toEqual([c.event.id, b.event.id, a.event.id]);
    const stored = await db.event.findUniqueOrThrow({ where: { id: a.event.id } });
    const { delivery, ...envelope } = all.body.items[2];
    expect(envelope).toEqual(JSON.parse(stored.body));
    expect(Object.keys(envelope)).toEqual(["id", "type", "createdAt", "data"]);
    expect(envelope.data).not.toHaveProperty("customer");
    expect(delivery).toEqual({ state: "NOT_CONFIGURED", deliveries: 1 });

    expect((await m.api("/v1/events?type=payment.failed")).body.items.map((e: { id: string }) => e.id)).toEqual([b.event.id]);
    expect((await m.api(`/v1/events?paymentId=${c.payment.id}`)).body.items.map((e: { id: string }) => e.id)).toEqual([c.event.id]);
    const today = new Date(Date.now() + 4 * 3600_000).toISOString().slice(0, 10);
    expect((await m.api(`/v1/events?from=${today}&to=${today}`)).body.total).toBe(3);
    expect((await m.api("/v1/events?from=2001-01-01&to=2001-01-02")).body).toMatchObject({ total: 0, items: [] });
    const page2 = await m.api("/v1/events?limit=2&page=2");
    expect(page2.body).toMatchObject({ total: 3, page: 2, limit: 2, pages: 2 });
    expect(page2.body.items.map((e: { id: string }) => e.id)).toEqual([a.event.id]);
    for (const bad of ["type=payment.created", "paymentId=123", "limit=101", "page=0", "after=nope", "from=2026-13-01", "colour=blue"]) {
      const res = await m.api(`/v1/events?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("after=<event id> returns the events that became visible after it, oldest first; another merchant's id is 404", async () => {
    const m = await newMerchant();
    const first = await concluded(m);
    const second = await concluded(m, "FAILED");
    const third = await concluded(m);
    const after = await m.api(`/v1/events?after=${first.event.id}`);
    expect(after.body.items.map((e: { id: string }) => e.id)).toEqual([second.event.id, third.event.id]);
    expect(after.body.total).toBe(2);
    const limited = await m.api(`/v1/events?after=${first.event.id}&limit=1`);
    expect(limited.body.items.map((e: { id: string }) => e.id)).toEqual([second.event.id]);
    expect((await m.api(`/v1/events?after=${third.event.id}`)).body.items).toEqual([]);
    expect((await m.api(`/v1/events?after=${first.event.id}&type=payment.succeeded`)).body.items.map((e: { id: string }) => e.id)).toEqual([third.event.id]);
    const paged = await m.api(`/v1/events?after=${first.event.id}&page=2`);
    expect(paged.status).toBe(400);
    expect(paged.body.error.message).toMatch(/after/);

    const other = await newMerchant();
    const foreign = await other.api(`/v1/events?after=${first.event.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("NOT_FOUND");
    expect((await other.api("/v1/events")).body.items).toEqual([]);
  });

  it("GET /v1/events/{id} is the envelope as delivered plus its deliveries and attempts; redeliver makes a fresh delivery of the same event id", async () => {
    const m = await newMerchant();
    const rx = await startReceiver((_r, i) => ({ status: i === 0 ? 500 : 200 }));
    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const { event } = await concluded(m);
    await rx.waitFor(1);
    // The receiver has the request before the sender has recorded the attempt: wait for the attempt row.
    const read = await eventually(async () => {
      const r = await m.api(`/v1/events/${event.id}`);
      return r.body.delivery?.deliveries?.[0]?.attempts?.length === 1 ? r : null;
    });
    expect(read.status).toBe(200);
    const stored = await db.event.findUniqueOrThrow({ where: { id: event.id } });
    const { delivery, forwards, ...envelope } = read.body;
    expect(forwards, "no listener forwarded it").toEqual([]);
    expect(envelope).toEqual(JSON.parse(stored.body));
    expect(delivery.deliveries).toHaveLength(1);
    expect(delivery.deliveries[0]).toMatchObject({ redelivery: false, attempts: [{ number: 1, statusCode: 500 }] });

    const again = await m.api(`/v1/events/${event.id}/redeliver`, { method: "POST", idempotencyKey: `redeliver-${event.id}` });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ eventId: event.id, delivery: { state: "PENDING" } });
    const [, redelivered] = await rx.waitFor(2);
    assertPresent(redelivered, "redelivered");
    expect(redelivered?.headers["x-service-event-id"]).toBe(event.id);
    expect(redelivered?.body.equals(Buffer.from(stored.body, "utf8"))).toBe(true);
    const signature = createHmac("sha256", secret).update(`${redelivered.headers["x-service-timestamp"]}.`).update(redelivered.body).digest("hex");
    expect(redelivered?.headers["x-service-signature"]).toBe(signature);
    const after = await eventually(async () => {
      const r = await m.api(`/v1/events/${event.id}`);
      return r.body.delivery.deliveries[1]?.state === "SUCCEEDED" ? r.body : null;
    });
    expect(after.delivery.state).toBe("SUCCEEDED");
    expect(after.delivery.deliveries[1]).toMatchObject({ id: again.body.delivery.id, redelivery: true, attempts: [{ number: 1, statusCode: 200 }] });
    // The first delivery keeps its own state and attempts (a retry is still scheduled for it).
    expect(after.delivery.deliveries[0]).toMatchObject({ redelivery: false, state: "PENDING" });
    expect(after.delivery.deliveries[0].attempts).toHaveLength(1);

    // A replay with the same key answers the first response and delivers nothing more.
    const replay = await m.api(`/v1/events/${event.id}/redeliver`, { method: "POST", idempotencyKey: `redeliver-${event.id}` });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(again.body);
    expect(await db.eventRedelivery.count({ where: { eventId: event.id } })).toBe(1);
    // A body other than {} is refused and changes nothing.
    const withBody = await m.api(`/v1/events/${event.id}/redeliver`, { body: { url: "http://elsewhere" } });
    expect(withBody.status).toBe(400);
    expect(await db.eventRedelivery.count({ where: { eventId: event.id } })).toBe(1);
    await rx.close();
  });

  it("another merchant's event is 404 NOT_FOUND for read and redeliver, and nothing is redelivered", async () => {
    const m = await newMerchant();
    const { event } = await concluded(m);
    const other = await newMerchant();
    for (const res of [await other.api(`/v1/events/${event.id}`), await other.api(`/v1/events/${event.id}/redeliver`, { method: "POST" })]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
      expect(res.text).not.toContain(m.merchant.id);
    }
    expect(await db.eventRedelivery.count({ where: { eventId: event.id } })).toBe(0);
  });

  it("the stream gives listeners new events and redeliveries in commit order (SSE with ready, items and heartbeats; JSON pages)", async () => {
    const m = await newMerchant();
    const before = await concluded(m);
    const page = await m.api("/v1/events/stream");
    expect(page.status).toBe(200);
    expect(page.body.items).toEqual([]);
    const start = page.body.cursor;

    const frames: { event: string; data: any }[] = [];
    const streaming = readStream(
      m,
      `?cursor=${start}`,
      (seen) => seen.filter((e) => e.event === "item").length >= 2 && seen.some((e) => e.event === "heartbeat"),
      15_000,
      frames,
    );
    await waitUntil(() => frames.some((e) => e.event === "ready"), { what: "the stream's ready frame" });
    const next = await concluded(m, "FAILED");
    const redelivery = await m.api(`/v1/events/${before.event.id}/redeliver`, { method: "POST" });
    expect(redelivery.status).toBe(201);
    const seen = await streaming;
    expect(seen[0]).toMatchObject({ event: "ready", data: { cursor: start, heartbeatSeconds: 5, headers: { eventId: "X-Service-Event-Id" } } });
    const items = seen.filter((e) => e.event === "item").map((e) => e.data);
    expect(items.map((i) => [i.kind, i.eventId])).toEqual([
      ["event", next.event.id],
      ["redelivery", before.event.id],
    ]);
    const stored = await db.event.findUniqueOrThrow({ where: { id: next.event.id } });
    expect(items[0]).toMatchObject({ type: "payment.failed", reference: next.payment.reference, body: stored.body, chaos: null });
    expect(BigInt(items[1].cursor)).toBeGreaterThan(BigInt(items[0].cursor));
    expect(seen.some((e) => e.event === "heartbeat")).toBe(true);

    const json = await m.api(`/v1/events/stream?cursor=${start}&types=payment.failed`);
    expect(json.body.items.map((i: { eventId: string }) => i.eventId)).toEqual([next.event.id]);
    expect(json.body.cursor).toBe(items[0].cursor);
  }, 30_000);

  it("the listener secret is derived from the API key: stable, distinct per key, never the key or the callback secret", () => {
    const a = listenerSecret("sk_sandbox_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    expect(a).toBe(listenerSecret("sk_sandbox_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(listenerSecret("sk_sandbox_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")).not.toBe(a);
  });
});
