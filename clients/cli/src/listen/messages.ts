// What `sandpiper listen` reads from the service's event stream (docs/callbacks.md "sandpiper listen"), parsed by
// schemas rather than trusted. The listener is a client of the stream: it accepts members a newer service adds
// (z.object, not strict) and checks only the ones it uses. Relative imports only: the sandpiper command loads
// this module through tsx from any folder.
import { z } from "zod";
import { CHAOS_KINDS } from "@/lib/contract/callbacks/chaos";

/** A feed position: decimal digits (a bigint on the service). */
const Cursor = z.string().regex(/^\d{1,18}$/, { message: "expected a feed position (decimal digits)" });

/**
 * `ready`: where the stream starts, how often heartbeats come, the header names to sign with, chaos mode, and the
 * token that lets this session record its forwards (null: the key may not).
 */
/**
 * `listener-secret`, and `ready`'s `listenerSecret`: which listener secret generations sign forwards now
 * (docs/callbacks.md "Rotating the secret"). The listener derives each secret from its key.
 */
export const ListenerSigningMessage = z.object({
  generation: z.int().min(0),
  previousGeneration: z.int().min(0).nullable(),
  previousUntil: z.string().nullable(),
});
export type ListenerSigning = z.output<typeof ListenerSigningMessage>;

export const ReadyMessage = z.object({
  cursor: Cursor,
  heartbeatSeconds: z.number().positive(),
  headers: z.object({ eventId: z.string().min(1) }),
  chaos: z.boolean().optional(),
  forwardToken: z.string().min(1).nullable().optional(),
  listenerSecret: ListenerSigningMessage.optional(),
});
export type ReadyMessage = z.output<typeof ReadyMessage>;

/** `item`: one feed item to forward (the FeedItem of the Events API). */
export const ItemMessage = z.object({
  cursor: Cursor,
  kind: z.enum(["event", "redelivery"]),
  eventId: z.string().min(1),
  type: z.string(),
  paymentId: z.string().nullable(),
  reference: z.string().nullable(),
  body: z.string(),
  chaos: z.object({ kinds: z.array(z.enum(CHAOS_KINDS)), delayMs: z.int().min(0) }).nullable(),
});
export type ItemMessage = z.output<typeof ItemMessage>;

/** `chaos`: chaos mode was switched on or off. */
export const ChaosMessage = z.object({ enabled: z.boolean() });

/** `bye`: the service closes the stream (`rotate` or `shutdown`). */
export const ByeMessage = z.object({ reason: z.string() });

/**
 * Parses the JSON data of one server-sent event of type `name` with its schema.
 * @param schema one of the message schemas above
 * @param name the SSE event name, for the error
 * @param data the SSE data (JSON text)
 * @returns the parsed message
 * @throws Error "the service sent a malformed <name> event: ..." when the text is not JSON or does not match (the
 *   listener then drops the connection and reconnects, as after any stream error)
 */
export function parseMessage<S extends z.ZodType>(schema: S, name: string, data: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new Error(`the service sent a malformed ${name} event: not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(data)"}: ${issue.message}`).join("; ");
    throw new Error(`the service sent a malformed ${name} event: ${problems}`);
  }
  return parsed.data;
}

/**
 * What the listener relies on in a state file: the cursor, and the delivered positions after it (an entry that is not a
 * feed position is dropped, not fatal). Other members (apiUrl, updatedAt) are for people reading the file.
 */
export const StateFile = z.object({
  cursor: Cursor,
  delivered: z
    .array(z.unknown())
    .optional()
    .transform((list) => list?.filter((c): c is string => Cursor.safeParse(c).success)),
});
