// `sandpiper events list | get | resend` (docs/callbacks.md "The sandpiper command"): the Events API from the command
// line.
import { randomUUID } from "node:crypto";
import {
  COMMON_HELP,
  EVENT_TYPES,
  HELP,
  connection,
  eventType,
  idArgument,
  intOption,
  parseCommandLine,
  usage,
  type Connection,
  type Env,
  type EventType,
} from "../args";
import { EventDetail, EventList, Redelivery } from "../answers";
import { request } from "../client";

export const EVENTS_HELP = `Usage: sandpiper events <list | get | resend> [options]

  list                  your events, newest first, as a table (--json for the API's answer)
  get <event id>        one event with every delivery and attempt, as JSON
  resend <event id>     deliver an event again: to every running sandpiper listen and to your callback address

Run "sandpiper events <command> --help" for each command's options.`;

export const EVENTS_LIST_HELP = `Usage: sandpiper events list [options]

Lists your merchant's events, newest first (GET /v1/events).

Options:
  --type <type>         only events of this type: ${EVENT_TYPES.join(", ")}
  --payment <id>        only the events of this payment
  --limit <n>           how many, 1 to 100 (default 20)
  --json                print the API's answer as JSON instead of a table
${COMMON_HELP}

The key needs the payments:read scope.`;

export const EVENTS_GET_HELP = `Usage: sandpiper events get <event id> [options]

Prints one event (GET /v1/events/{id}) as JSON: the envelope exactly as delivered, and its deliveries with
every attempt.

Options:
${COMMON_HELP}

The key needs the payments:read scope.`;

export const EVENTS_RESEND_HELP = `Usage: sandpiper events resend <event id> [options]

Delivers an event again (POST /v1/events/{id}/redeliver with a new Idempotency-Key on every run): the same
event id and body with a new timestamp and signature, to every running sandpiper listen and, as a new
delivery with its own attempts, to the callback address configured in the console.

Options:
  --json                print the API's answer as JSON
${COMMON_HELP}

The key needs the payments:read scope.`;

export type EventsListArgs = { connection: Connection; type?: EventType; paymentId?: string; limit: number; json: boolean };
export type EventsGetArgs = { connection: Connection; eventId: string };
export type EventsResendArgs = { connection: Connection; eventId: string; json: boolean };

/**
 * Parses the arguments after `events list`. Returns HELP for --help.
 * @throws UsageError (one line) for a malformed option.
 */
export function parseEventsList(argv: string[], env: Env): EventsListArgs | typeof HELP {
  const parsed = parseCommandLine(
    "events list",
    argv,
    { type: { type: "string" }, payment: { type: "string" }, limit: { type: "string" }, json: { type: "boolean" } },
    0,
  );
  if (parsed === HELP) return HELP;
  const { values } = parsed;
  const type = values.type === undefined ? undefined : eventType("events list", values.type);
  const paymentId = values.payment === undefined ? undefined : idArgument("events list", "payment id", values.payment);
  const limit = intOption("events list", "limit", values.limit, 1, 100) ?? 20;
  return { connection: connection("events list", values, env), type, paymentId, limit, json: values.json === true };
}

/**
 * Parses the arguments after `events get`. Returns HELP for --help.
 * @throws UsageError when the event id is missing or not a uuid.
 */
export function parseEventsGet(argv: string[], env: Env): EventsGetArgs | typeof HELP {
  const parsed = parseCommandLine("events get", argv, {}, 1);
  if (parsed === HELP) return HELP;
  return { eventId: idArgument("events get", "event id", parsed.positionals[0]), connection: connection("events get", parsed.values, env) };
}

/**
 * Parses the arguments after `events resend`. Returns HELP for --help.
 * @throws UsageError when the event id is missing or not a uuid.
 */
export function parseEventsResend(argv: string[], env: Env): EventsResendArgs | typeof HELP {
  const parsed = parseCommandLine("events resend", argv, { json: { type: "boolean" } }, 1);
  if (parsed === HELP) return HELP;
  return {
    eventId: idArgument("events resend", "event id", parsed.positionals[0]),
    connection: connection("events resend", parsed.values, env),
    json: parsed.values.json === true,
  };
}

/** Rows as left-aligned columns separated by two spaces; the first row is the header. */
export function formatTable(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ")).join("\n");
}

/**
 * `sandpiper events list`: prints a table (or the raw JSON page).
 * @returns 0
 * @throws ServiceError when the service refuses the request
 */
export async function runEventsList(args: EventsListArgs): Promise<number> {
  const query = new URLSearchParams({ limit: String(args.limit) });
  if (args.type) query.set("type", args.type);
  if (args.paymentId) query.set("paymentId", args.paymentId);
  const page = await request(args.connection, "GET", `/v1/events?${query}`, EventList);
  if (args.json) {
    console.log(JSON.stringify(page, null, 2));
    return 0;
  }
  if (page.items.length === 0) {
    console.log(`No events${args.type || args.paymentId ? " match these filters" : " yet: make one with sandpiper trigger payment.succeeded"}.`);
    return 0;
  }
  const rows = [["CREATED", "TYPE", "EVENT ID", "REFERENCE", "AMOUNT", "DELIVERY"]];
  for (const e of page.items) {
    rows.push([
      e.createdAt.replace(/\.\d+Z$/, "Z"),
      e.type,
      e.id,
      e.data.reference,
      `${e.data.amount} ${e.data.currency}`,
      `${e.delivery.state}${e.delivery.deliveries > 1 ? ` (${e.delivery.deliveries} deliveries)` : ""}`,
    ]);
  }
  console.log(formatTable(rows));
  console.log(`\n${page.items.length} of ${page.total} event${page.total === 1 ? "" : "s"}, newest first. Details: sandpiper events get <event id>`);
  return 0;
}

/**
 * `sandpiper events get`: prints the event as indented JSON.
 * @returns 0
 * @throws ServiceError (404 NOT_FOUND for an unknown or another merchant's event)
 */
export async function runEventsGet(args: EventsGetArgs): Promise<number> {
  console.log(JSON.stringify(await request(args.connection, "GET", `/v1/events/${args.eventId}`, EventDetail), null, 2));
  return 0;
}

/**
 * `sandpiper events resend`: asks for a redelivery with a fresh Idempotency-Key and says where it goes.
 * @returns 0
 * @throws ServiceError (404 NOT_FOUND for an unknown or another merchant's event)
 */
export async function runEventsResend(args: EventsResendArgs): Promise<number> {
  const r = await request(args.connection, "POST", `/v1/events/${args.eventId}/redeliver`, Redelivery, { idempotencyKey: `sandpiper-resend-${randomUUID()}` });
  if (args.json) {
    console.log(JSON.stringify(r, null, 2));
    return 0;
  }
  console.log(`Redelivery ${r.id} of event ${r.eventId}`);
  console.log("It reaches every running sandpiper listen now (a stopped one gets it when it resumes).");
  console.log(
    r.delivery
      ? `The configured callback address gets it as delivery ${r.delivery.id} (${r.delivery.state}): follow it with sandpiper events get ${r.eventId}`
      : "No callback address is configured, so only listeners receive it (set the address in the console, Callbacks).",
  );
  return 0;
}

/** The `events` subcommands, by name. */
export const EVENTS_COMMANDS = {
  list: { help: EVENTS_LIST_HELP, parse: parseEventsList, run: runEventsList },
  get: { help: EVENTS_GET_HELP, parse: parseEventsGet, run: runEventsGet },
  resend: { help: EVENTS_RESEND_HELP, parse: parseEventsResend, run: runEventsResend },
} as const;

/** A UsageError for an unknown `events` subcommand. */
export const unknownEventsCommand = (name: string) => usage("events", `unknown command "${name}": use list, get or resend`);
