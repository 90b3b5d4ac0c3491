// What the sandpiper command reads of the service's answers: one zod schema per answer, of the members the command
// uses (loose objects: members it does not name pass through, so --json prints the answer as the service sent it).
// Each is checked against the TypeScript client's types of the OpenAPI document (clients/typescript, generated from
// the document): every answer the document describes must pass its schema, or the build's type check fails.
import { z } from "zod";
import type { components } from "../../typescript/src/schema";

type Doc = components["schemas"];

/**
 * `schema`, when every answer the document types as `D` passes it (D is assignable to the schema's input); otherwise a
 * type error at the call naming the document's type.
 */
function answerOf<D>() {
  return <S extends z.ZodType>(schema: S & ([D] extends [z.input<S>] ? unknown : { "an answer the document describes would not pass": D })): S => schema;
}

const obj = z.looseObject;

const ClockFields = {
  offsetMs: z.number(),
  offset: z.string(),
  now: z.string(),
  realNow: z.string(),
  due: obj({ payments: z.number(), checkoutSessions: z.number(), deliveries: z.number() }).optional(),
  missingRates: z.array(obj({ pair: z.string(), days: z.array(z.string()) })).optional(),
};
/** `GET /v1/sandbox/clock`. */
export const Clock = answerOf<Doc["SandboxClock"]>()(obj(ClockFields));
/** `POST /v1/sandbox/clock/advance` and `/reset`. */
export const ClockMove = answerOf<Doc["SandboxClockMove"]>()(
  obj({ ...ClockFields, advancedByMs: z.number(), expired: obj({ payments: z.number(), checkoutSessions: z.number() }), deliveriesDue: z.number() }),
);

/** The state of the callback or listener secret (`GET /v1/sandbox/callback-secret`, `/listener-secret`, `end-overlap`). */
export const SecretState = answerOf<Doc["CallbackSecretState"] | Doc["ListenerSecretState"]>()(
  obj({ configured: z.boolean().optional(), generation: z.number().optional(), overlapEndsAt: z.string().nullable() }),
);
/** A rotation of either secret (`POST .../rotate`): the new secret, shown once. */
export const SecretRotation = answerOf<Doc["CallbackSecretRotation"] | Doc["ListenerSecretRotation"]>()(
  obj({ secret: z.string(), overlapEndsAt: z.string().nullable() }),
);

/** `GET /v1/events`: the members the table shows. */
export const EventList = answerOf<Doc["EventList"]>()(
  obj({
    items: z.array(
      obj({
        id: z.string(),
        type: z.string(),
        createdAt: z.string(),
        data: obj({ reference: z.string(), amount: z.string(), currency: z.string() }),
        delivery: obj({ state: z.string(), deliveries: z.number() }),
      }),
    ),
    total: z.number(),
  }),
);
/** `GET /v1/events/{id}`: printed as it is. */
export const EventDetail = obj({ id: z.string() });
/** `POST /v1/events/{id}/redeliver`. */
export const Redelivery = answerOf<Doc["EventRedelivery"]>()(
  obj({ id: z.string(), eventId: z.string(), delivery: obj({ id: z.string(), state: z.string() }).nullable() }),
);

/** A payment as `trigger` reports it (`POST /v1/payments`, the sandbox complete and expire). */
export const TriggeredPayment = answerOf<Doc["Payment"]>()(
  obj({ id: z.string(), reference: z.string(), amount: z.string(), currency: z.string(), method: z.string(), status: z.string() }),
);

/** What a test helper answers (`simulate`): a payment, a store payment, a checkout session with its quote, or a delivery. */
export const HelperAnswer = answerOf<Doc["Payment"] | Doc["StorePayment"] | Doc["QuotedCheckoutSession"] | Doc["SandboxDelivery"]>()(
  obj({
    id: z.string(),
    status: z.string().optional(),
    state: z.string().optional(),
    amount: z.string().nullable().optional(),
    currency: z.string().nullable().optional(),
    quote: obj({ chargeAmount: z.string(), chargeCurrency: z.string() }).nullable().optional(),
    checkout: obj({ state: z.string() }).nullable().optional(),
    failure: obj({ code: z.string(), message: z.string() }).nullable().optional(),
    nextAttemptAt: z.string().nullable().optional(),
    eventId: z.string().optional(),
  }),
);

const RuleFields = { id: z.string(), name: z.string(), enabled: z.boolean(), position: z.number(), outcome: z.string(), delayMs: z.number() };
/** A scenario rule (`POST` and `PATCH /v1/sandbox/scenario-rules...`). */
export const ScenarioRule = answerOf<Doc["ScenarioRule"]>()(obj({ ...RuleFields, match: z.record(z.string(), z.unknown()) }));
/** The merchant's scenario rules (`GET /v1/sandbox/scenario-rules`, `POST .../standard`). */
export const ScenarioRuleList = answerOf<Doc["ScenarioRuleList"]>()(obj({ items: z.array(ScenarioRule) }));
/** `DELETE /v1/sandbox/scenario-rules/{id}`: printed as it is. */
export const DeletedScenarioRule = answerOf<Doc["DeletedScenarioRule"]>()(obj({ id: z.string() }));

/** `GET /v1/requests`: the members `logs tail` prints. */
export const RequestLogList = answerOf<Doc["RequestLogList"]>()(
  obj({
    items: z.array(
      obj({
        requestId: z.string(),
        createdAt: z.string(),
        method: z.string(),
        path: z.string(),
        query: z.string().nullable(),
        status: z.number(),
        errorCode: z.string().nullable(),
        idempotencyKey: z.string().nullable(),
        replayed: z.boolean(),
        latencyMs: z.number(),
      }),
    ),
  }),
);

/** A refusal's error envelope (docs/api.md "Errors"), as far as it is one: anything else reads as no envelope. */
export const Refusal = z
  .object({ error: z.object({ code: z.string().optional(), message: z.string().optional(), requestId: z.string().optional() }) })
  .nullable()
  .catch(null);
