import { z } from "zod";
import { Timestamp } from "@/lib/contract/schemas/api/common";
import { Payment } from "@/lib/contract/schemas/api/payment-resource";
import { Day, positiveInt } from "@/lib/contract/schemas/api/payments";

// Requests and responses of the Events API (docs/callbacks.md "Events API"). Like every resource schema, these
// are the serialisers' types and the source of the OpenAPI document.

/** docs/callbacks.md: the only event types. */
export const EVENT_TYPES = ["payment.succeeded", "payment.failed", "payment.expired"] as const;

export const EventType = z.enum(EVENT_TYPES).describe("payment.succeeded, payment.failed or payment.expired; no other event types exist");
/** A callback delivery's state (docs/callbacks.md). */
export const DeliveryState = z.enum(["PENDING", "SUCCEEDED", "FAILED", "NOT_CONFIGURED"]);

/** The callback envelope exactly as delivered (docs/guides/receive-and-verify-callbacks.md "Receiving callbacks"). */
export const EventEnvelope = z
  .strictObject({
    id: z.uuid().describe("event id; equals the X-Service-Event-Id header and stays the same across retries and redeliveries"),
    type: EventType,
    createdAt: Timestamp.describe("when the payment reached the state the event reports"),
    data: Payment.omit({ checkout: true, customer: true }).describe("the full Payment without the customer member, as it was when the event was recorded"),
  })
  .describe("The callback envelope exactly as it is delivered.");

const Attempt = z.strictObject({
  number: z.int().min(1).describe("attempt number within this delivery, from 1"),
  startedAt: Timestamp.describe("When the attempt started (ISO 8601, UTC)."),
  durationMs: z.int().min(0).describe("wall time of the attempt, milliseconds"),
  statusCode: z.int().nullable().describe("the receiver's HTTP status; null when no answer arrived"),
  error: z.string().nullable().describe("why the attempt failed (time-out, connection refused, HTTP status); null when it succeeded"),
});

const Delivery = z.strictObject({
  id: z.uuid().describe("delivery id"),
  state: DeliveryState.describe("PENDING (attempts continue), SUCCEEDED (a 2xx answer), FAILED (8 attempts failed) or NOT_CONFIGURED (no callback address)."),
  redelivery: z.boolean().describe("true for a delivery made by POST /v1/events/{id}/redeliver"),
  createdAt: Timestamp.describe("When the delivery was created (ISO 8601, UTC)."),
  deliveredAt: Timestamp.nullable().describe("when the receiver answered 2xx"),
  nextAttemptAt: Timestamp.nullable().describe("when the next attempt is due; null when none is scheduled"),
  waiting: z
    .string()
    .optional()
    .describe(
      "present only while this PENDING delivery waits for its callback address: `address refused connections since <time>` (ISO 8601, UTC, real clock). Nothing is sent while the address refuses; the service probes it every second and sends this delivery at once (or at its own retry time, when that is later) when it accepts connections again. POST /v1/sandbox/deliveries/{id}/attempt sends it now.",
    ),
  attempts: z.array(Attempt).describe("attempts of this delivery, oldest first"),
});

/** A list item: the envelope and the state of its latest delivery to the configured address. */
export const EventSummary = EventEnvelope.extend({
  delivery: z
    .strictObject({
      state: DeliveryState.describe("state of the latest delivery to the configured callback address"),
      deliveries: z.int().min(0).describe("deliveries made: the first, plus one per redelivery"),
    })
    .describe("delivery to the configured callback address (listener forwards are not counted)"),
}).describe("An event as lists show it.");

export const EventList = z.strictObject({
  items: z.array(EventSummary).describe("This page's events, newest first."),
  total: z.int().min(0).describe("events matching the filters (with after: those still to read from that point)"),
  page: z.int().min(1).describe("This page's number, from 1."),
  limit: z.int().min(1).max(100).describe("Page size asked for."),
  pages: z.int().min(0).describe("Number of pages: ceil(total / limit)."),
});

/** `GET /v1/events` query. */
export const ListEventsQuery = z
  .strictObject({
    page: positiveInt().default(1).describe("page number, >= 1; default 1 (not with after)"),
    limit: positiveInt(100).default(20).describe("page size, 1 to 100; default 20"),
    type: EventType.optional(),
    paymentId: z.uuid({ message: "must be a payment id (uuid)" }).optional().describe("only the events of this payment"),
    from: Day.optional(),
    to: Day.optional(),
    after: z
      .uuid({ message: "must be an event id (uuid)" })
      .optional()
      .describe("an event id: return the events that became visible after it, oldest first (commit order)"),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["from"] });

/** `POST /v1/events/{id}/redeliver` answer. */
export const EventRedelivery = z
  .strictObject({
    id: z.uuid().describe("redelivery id"),
    eventId: z.uuid().describe("the event redelivered (the same event id is sent)"),
    createdAt: Timestamp.describe("When the redelivery was asked for (ISO 8601, UTC)."),
    delivery: z
      .strictObject({ id: z.uuid().describe("the new delivery's id"), state: z.literal("PENDING").describe("A new delivery starts PENDING.") })
      .nullable()
      .describe("the new delivery to the configured callback address; null when no address is configured (listeners still receive it)"),
  })
  .describe("A fresh delivery of an event to the configured address and to running listeners.");

/** `GET /v1/events/stream` query (listeners). */
export const EventStreamQuery = z.strictObject({
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, { message: "must be a cursor returned by this endpoint" })
    .optional()
    .describe(
      "the merchant's feed position to read after (from a previous item or heartbeat; positions count this merchant's events and redeliveries from 1); omitted, or past the newest: start at the newest position",
    ),
  types: z
    .string()
    .regex(/^[a-z.]+(,[a-z.]+)*$/, { message: "must be a comma-separated list of event types" })
    .refine((t) => t.split(",").every((x) => (EVENT_TYPES as readonly string[]).includes(x)), { message: `must list only ${EVENT_TYPES.join(", ")}` })
    .optional()
    .describe("comma-separated event types to receive; default all"),
  wait: positiveInt(25).optional().describe("JSON mode only: seconds to wait for a first item when there is none yet, 1 to 25; default 0"),
});

const FeedItem = z.strictObject({
  cursor: z
    .string()
    .describe("the merchant's feed position of this item (its own events and redeliveries, from 1); pass it back as cursor to read on after it"),
  kind: z.enum(["event", "redelivery"]).describe("a new event, or a redelivery of an earlier one"),
  eventId: z.uuid().describe("The event id (also the X-Service-Event-Id of forwards)."),
  type: EventType,
  createdAt: Timestamp.describe("when the event (or the redelivery) was recorded"),
  paymentId: z.uuid().nullable().describe("The payment the event is about; null for a test event."),
  reference: z.string().nullable().describe("the payment's reference"),
  body: z.string().describe("the exact envelope text to send as the request body (sign these bytes)"),
  chaos: z
    .strictObject({
      kinds: z
        .array(z.enum(["duplicate", "delay", "bad_signature", "stale_timestamp"]))
        .describe("What chaos mode injects for this event on listener forwards."),
      delayMs: z.int().min(0).describe("milliseconds to hold the forward back"),
    })
    .nullable()
    .describe("what chaos mode injects into this forward; null when chaos mode is off"),
});

/** `GET /v1/events/stream` in JSON mode (without `Accept: text/event-stream`). */
export const EventStreamPage = z.strictObject({
  items: z.array(FeedItem).describe("at most 100 items, oldest first"),
  cursor: z.string().describe("position to pass as cursor next time"),
});

/** One forward attempt as `sandpiper listen` reports it (`POST /v1/events/forwards`). */
const ForwardReport = z.strictObject({
  eventId: z.uuid().describe("the event forwarded"),
  forwardId: z.uuid().describe("made by the listener: one per forward of one feed item, the same for all its attempts"),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, { message: "must be a feed position" })
    .describe("the feed position of the item forwarded"),
  kind: z.enum(["event", "redelivery"]).describe("a new event, or a redelivery of one"),
  attempt: z.int().min(1).max(1000).describe("attempt number of this forward, from 1"),
  startedAt: Timestamp.describe("when the attempt started"),
  durationMs: z.int().min(0).max(600_000).describe("wall time of the attempt, milliseconds"),
  statusCode: z.int().min(100).max(599).nullable().describe("the receiver's HTTP status; null when no answer arrived"),
  error: z.string().max(500).nullable().describe("why no answer arrived (connection refused, time-out); null otherwise"),
  forwardTo: z.string().min(1).max(2048).describe("the receiver's URL"),
  timestamp: z
    .string()
    .regex(/^\d{10}$/, { message: "must be the 10-digit timestamp header sent" })
    .describe("the timestamp header sent"),
  signature: z
    .string()
    .regex(/^[0-9a-f]{64}$/, { message: "must be the 64 lowercase hex signature header sent" })
    .describe("the signature header sent"),
  responseSnippet: z.string().max(1024).nullable().describe("the first characters of the receiver's answer"),
  nextAttemptAt: Timestamp.nullable().describe("when the listener tries again; null after a 2xx or when it gave up"),
});

/** `POST /v1/events/forwards` body: a batch of forward attempts. */
export const RecordForwards = z
  .strictObject({
    forwardToken: z
      .string()
      .min(1)
      .max(2048)
      .describe(
        "the `forwardToken` of the `ready` message of the stream the listener follows: only that key's listener session records, for 70 minutes after the stream opened",
      ),
    forwards: z.array(ForwardReport).min(1).max(50).describe("1 to 50 attempts"),
  })
  .describe("Forward attempts of a `sandpiper listen` process, recorded for the merchant's events.");

/** `POST /v1/events/forwards` answer. */
export const ForwardsRecorded = z.strictObject({
  recorded: z.int().min(0).describe("attempts recorded now"),
  duplicates: z.int().min(0).describe("attempts already recorded (the same forwardId and attempt): nothing changed"),
  unknownEvents: z.array(z.uuid()).describe("event ids that are not this merchant's: their attempts were not recorded"),
  refused: z
    .array(
      z.strictObject({
        index: z.int().min(0).describe("the attempt's place in `forwards`, from 0"),
        forwardId: z.uuid().describe("the attempt's forwardId"),
        attempt: z.int().min(1).describe("the attempt's number"),
        reason: z.string().describe("why it was not recorded, with the bound it missed (real time)"),
      }),
    )
    .describe(
      "attempts not recorded because their `startedAt` cannot be an attempt of this listener session (before the event was recorded or the stream opened, or after now); the rest of the batch was recorded",
    ),
});

const ForwardAttempt = z.strictObject({
  number: z.int().min(1).describe("attempt number of this forward, from 1"),
  startedAt: Timestamp.describe("when the attempt started"),
  durationMs: z.int().min(0).describe("wall time, milliseconds"),
  statusCode: z.int().nullable().describe("the receiver's HTTP status; null when no answer arrived"),
  error: z.string().nullable().describe("why no answer arrived; null otherwise"),
  nextAttemptAt: Timestamp.nullable().describe("when the listener tried again; null after a 2xx or when it gave up"),
});

/** A listener forward of an event as `GET /v1/events/{id}` shows it. */
export const ListenerForward = z.strictObject({
  id: z.uuid().describe("the forward's id (the listener's forwardId)"),
  kind: z.enum(["event", "redelivery"]).describe("the feed item forwarded: the event, or a redelivery of it"),
  forwardTo: z.string().describe("the receiver's URL"),
  state: z
    .enum(["DELIVERED", "RETRYING", "FAILED"])
    .describe("DELIVERED once an attempt got a 2xx; RETRYING while the listener has a next attempt; FAILED when it stopped without a 2xx"),
  attempts: z.array(ForwardAttempt).describe("attempts, oldest first"),
});

/** `GET /v1/events/{id}`: the envelope plus every delivery with its attempts, and the listener forwards. */
export const Event = EventEnvelope.extend({
  delivery: z
    .strictObject({
      state: DeliveryState.describe("state of the latest delivery to the configured callback address"),
      deliveries: z.array(Delivery).describe("the first delivery, then one per redelivery, oldest first"),
    })
    .describe("delivery to the configured callback address; listener forwards are not deliveries and are listed in forwards"),
  forwards: z
    .array(ListenerForward)
    .describe("what `sandpiper listen` processes reported of forwarding this event to a receiver, oldest first; never counted as deliveries"),
}).describe("One event: the envelope exactly as delivered, its deliveries and its listener forwards in separate members.");
