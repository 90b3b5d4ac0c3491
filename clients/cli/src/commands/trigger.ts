// `sandpiper trigger <event type>` (docs/callbacks.md "The sandpiper command"): makes a sandbox deposit and concludes
// it so that the service records (and delivers) an event of that type, like `stripe trigger`.
import { randomUUID } from "node:crypto";
import { COMMON_HELP, HELP, choiceOf, connection, eventType, parseCommandLine, usage, type Connection, type Env, type EventType } from "../args";
import type { z } from "zod";
import { EventList, TriggeredPayment } from "../answers";
import { request, ServiceError } from "../client";

/** The deposit made when no option says otherwise: the seeded sandbox merchant's USD gateway profile (docs/guides/operate-sandpiper.md "Seeded sandbox"). */
export const TRIGGER_DEFAULTS = { amount: "10.00", currency: "USD", method: "GATEWAY" } as const;
const METHODS = ["GATEWAY", "BANK_TRANSFER"] as const;

export const TRIGGER_HELP = `Usage: sandpiper trigger <event type> [options]

Makes a sandbox deposit and concludes it, so that the service records an event of that type and delivers it
to your callback address and to every running sandpiper listen:
  payment.succeeded     POST /v1/payments, then POST /v1/sandbox/payments/{id}/complete {"outcome":"SUCCEEDED"}
  payment.failed        POST /v1/payments, then the same with {"outcome":"FAILED"}
  payment.expired       POST /v1/payments, then POST /v1/sandbox/payments/{id}/expire
Prints the payment id and the event id.

Options:
  --amount <decimal>    the deposit's amount (default ${TRIGGER_DEFAULTS.amount})
  --currency <code>     its currency, one your merchant has a pricing profile for (default ${TRIGGER_DEFAULTS.currency})
  --method <method>     ${METHODS.join(" or ")} (default ${TRIGGER_DEFAULTS.method})
  --reference <text>    the payment's reference (default: sandpiper-trigger- and a random part)
  --json                print the payment and the event as JSON
${COMMON_HELP}

The key needs the payments:create and sandbox:simulate scopes (the seeded "API key (all scopes)" has both).`;

/** A parsed `sandpiper trigger` command line. Amount and currency are text, as the API takes them. */
export type TriggerArgs = {
  connection: Connection;
  type: EventType;
  amount: string;
  currency: string;
  method: (typeof METHODS)[number];
  reference: string;
  json: boolean;
};

/**
 * Parses the arguments after `trigger`. Returns HELP for --help.
 * @throws UsageError (one line) for a missing or unknown event type or a malformed option.
 */
export function parseTrigger(argv: string[], env: Env): TriggerArgs | typeof HELP {
  const parsed = parseCommandLine(
    "trigger",
    argv,
    {
      amount: { type: "string" },
      currency: { type: "string" },
      method: { type: "string" },
      reference: { type: "string" },
      json: { type: "boolean" },
    },
    1,
  );
  if (parsed === HELP) return HELP;
  const { values, positionals } = parsed;
  const type = eventType("trigger", positionals[0]);
  const amount = values.amount ?? TRIGGER_DEFAULTS.amount;
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(amount)) throw usage("trigger", `--amount must be a decimal like ${TRIGGER_DEFAULTS.amount} (up to 2 decimals)`);
  const currency = (values.currency ?? TRIGGER_DEFAULTS.currency).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw usage("trigger", "--currency must be a three-letter ISO 4217 code, e.g. USD");
  const method = choiceOf(METHODS, (values.method ?? TRIGGER_DEFAULTS.method).toUpperCase());
  if (!method) throw usage("trigger", `--method must be ${METHODS.join(" or ")}`);
  const reference = values.reference ?? `sandpiper-trigger-${randomUUID().slice(0, 8)}`;
  if (reference.length < 1 || reference.length > 120) throw usage("trigger", "--reference must be 1 to 120 characters");
  return {
    connection: connection("trigger", values, env),
    type,
    amount,
    currency,
    method,
    reference,
    json: values.json === true,
  };
}

const SCOPES_HINT =
  'sandpiper trigger needs a key with the payments:create and sandbox:simulate scopes (the seeded "API key (all scopes)" has both): pass it with --api-key or SANDPIPER_API_KEY.';

/** Gives a refusal the advice of this command: the scopes it needs, the options that choose the deposit. */
function advise(error: unknown, step: "create" | "conclude", paymentId?: string): unknown {
  if (!(error instanceof ServiceError) || error.status === null) return error;
  if (error.status === 403 && error.code === "INSUFFICIENT_SCOPE") error.hint = SCOPES_HINT;
  else if (step === "create" && error.status !== 401 && error.status !== 429 && error.status < 500) {
    error.hint = "Choose a deposit your merchant can take: --amount, --currency and --method (its pricing profiles are in the console).";
  }
  if (paymentId) error.hint = `Payment ${paymentId} was created and stays PENDING. ${error.hint}`.trim();
  return error;
}

/**
 * Creates the deposit, concludes it for the event type, and finds the event (GET /v1/events?paymentId=...).
 * @returns 0 once the event is found
 * @throws ServiceError when the service refuses a step (a 403 names the scopes trigger needs)
 */
export async function runTrigger(args: TriggerArgs): Promise<number> {
  const key = `sandpiper-trigger-${randomUUID()}`;
  let payment: z.output<typeof TriggeredPayment>;
  try {
    payment = await request(args.connection, "POST", "/v1/payments", TriggeredPayment, {
      body: { reference: args.reference, amount: args.amount, currency: args.currency, method: args.method, direction: "DEPOSIT" },
      idempotencyKey: `${key}-create`,
    });
  } catch (error) {
    throw advise(error, "create");
  }
  if (!args.json) console.log(`Payment ${payment.id} created: ${payment.amount} ${payment.currency} ${payment.method} deposit, reference ${payment.reference}`);
  let concluded: z.output<typeof TriggeredPayment>;
  try {
    concluded =
      args.type === "payment.expired"
        ? await request(args.connection, "POST", `/v1/sandbox/payments/${payment.id}/expire`, TriggeredPayment, { idempotencyKey: `${key}-expire` })
        : await request(args.connection, "POST", `/v1/sandbox/payments/${payment.id}/complete`, TriggeredPayment, {
            body: { outcome: args.type === "payment.succeeded" ? "SUCCEEDED" : "FAILED" },
            idempotencyKey: `${key}-complete`,
          });
  } catch (error) {
    throw advise(error, "conclude", payment.id);
  }
  // The event is written in the same transaction as the conclusion, so it is there now; a few reads allow for a
  // read that reaches the service before that commit is visible to it.
  let event: z.output<typeof EventList>["items"][number] | undefined;
  for (let tries = 0; !event && tries < 20; tries++) {
    if (tries) await new Promise((r) => setTimeout(r, 250));
    const page = await request(args.connection, "GET", `/v1/events?paymentId=${payment.id}&type=${args.type}&limit=1`, EventList);
    event = page.items[0];
  }
  if (!event)
    throw new ServiceError(
      null,
      "NO_EVENT",
      `payment ${payment.id} is ${concluded.status} but no ${args.type} event was found for it`,
      null,
      `Look for it with sandpiper events list --payment ${payment.id}.`,
    );
  if (args.json) {
    console.log(JSON.stringify({ payment: concluded, event }, null, 2));
    return 0;
  }
  console.log(`Payment ${payment.id} is now ${concluded.status}`);
  const where =
    event.delivery.state === "NOT_CONFIGURED"
      ? "sent to every running sandpiper listen (no callback address is configured)"
      : "delivered to your callback address and every running sandpiper listen";
  console.log(`Event ${event.type} ${event.id}: ${where} (details: sandpiper events get ${event.id})`);
  return 0;
}
