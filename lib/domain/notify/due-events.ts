// The "work is due" events (docs/architecture.md "Jobs"): for each kind of announced work, the Inngest event name,
// the typed payload that names one item, and the id of the polling job that catches up whatever an announcement
// missed (the job the embedded driver wakes instead of sending the event). The domain folders announce them
// (lib/domain/notify/announce.ts) and the event-driven entries of lib/application/jobs/registry.ts answer them; this folder sits below
// both, so neither imports the other.
import { z } from "zod";
import { isUuid } from "@/lib/contract/schemas/api/common";

/** A due event's payload: string members naming one item, e.g. `{ deliveryId }`. */
export type DuePayload = Record<string, string>;

/**
 * One kind of due work.
 * - `name`: the Inngest event name (`sandpiper/<what>.due`).
 * - `payload`: the zod schema of the event's `data`; `members` are its member names.
 * - `catchUpJobId`: the polling job (lib/application/jobs/registry.ts) that picks up every due item, announced or not.
 */
export type DueEvent<P extends DuePayload> = {
  readonly name: string;
  readonly payload: z.ZodType<P>;
  readonly members: readonly (keyof P & string)[];
  readonly catchUpJobId: string;
};

/** A uuid as text (lib/contract/schemas/api/common.ts `isUuid`: the same check as an id from a path). */
const uuidText = z.string().refine((text) => isUuid(text), { message: "must be a uuid" });

/**
 * A due event whose payload has `members`, each a uuid; the payload's type follows, so
 * `announce(DELIVERY_DUE, [{ paymentId }])` does not type-check.
 */
function dueEvent<const M extends string>(spec: { name: string; members: readonly M[]; catchUpJobId: string }): DueEvent<Record<M, string>> {
  const shape = Object.fromEntries(spec.members.map((member) => [member, uuidText]));
  return { name: spec.name, payload: z.object(shape) as unknown as z.ZodType<Record<M, string>>, members: spec.members, catchUpJobId: spec.catchUpJobId };
}

/** A callback delivery became due (PENDING, due now): `data: { deliveryId }`; caught up by `deliver-due-callbacks`. */
export const DELIVERY_DUE = dueEvent({ name: "sandpiper/delivery.due", members: ["deliveryId"], catchUpJobId: "deliver-due-callbacks" });

/** A store checkout was queued for its signed handoff: `data: { paymentId }`; caught up by `store-handoffs`. */
export const STORE_HANDOFF_DUE = dueEvent({ name: "sandpiper/store-handoff.due", members: ["paymentId"], catchUpJobId: "store-handoffs" });
