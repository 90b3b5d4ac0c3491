// `sandpiper clock show | advance | reset` (docs/api.md "Sandbox clock"): the merchant's sandbox clock from the
// command line, for a test suite that moves time (POST /v1/sandbox/clock/advance and /reset).
import { randomUUID } from "node:crypto";
import { COMMON_HELP, HELP, connection, parseCommandLine, usage, type Connection, type Env } from "../args";
import { request } from "../client";
import { countOf } from "../../console/words";

export const CLOCK_HELP = `Usage: sandpiper clock <show | advance <duration> | reset> [options]

  show                  how far your sandbox time runs ahead of the real time
  advance <duration>    move your sandbox time ahead, e.g. 2h, 30m, 1d12h or PT2H: pending payments and checkout
                        sessions past their expiry expire now, waiting callback retries come sooner, velocity
                        windows and daily and monthly limits roll over
  reset                 back to the real time (nothing is moved back)

Options:
  --json                print the API's answer as JSON
${COMMON_HELP}

The key needs the sandbox:simulate scope.`;

const SUBCOMMANDS = ["show", "advance", "reset"] as const;
export type ClockArgs = { connection: Connection; action: (typeof SUBCOMMANDS)[number]; by: string | null; json: boolean };

/**
 * Parses the arguments after `clock`. Returns HELP for --help.
 * @throws UsageError (one line) for a missing or unknown subcommand, or advance without a duration.
 */
export function parseClock(argv: string[], env: Env): ClockArgs | typeof HELP {
  const parsed = parseCommandLine("clock", argv, { json: { type: "boolean" } }, 2);
  if (parsed === HELP) return HELP;
  const [action, by] = parsed.positionals;
  if (!SUBCOMMANDS.includes(action as ClockArgs["action"]))
    throw usage("clock", `${action ? `unknown command "${action}"` : "a command is required"}: use show, advance <duration> or reset`);
  if (action === "advance" && !by) throw usage("clock", "advance needs a duration, e.g. sandpiper clock advance 2h");
  if (action !== "advance" && by) throw usage("clock", `${action} takes no duration`);
  return { connection: connection("clock", parsed.values, env), action: action as ClockArgs["action"], by: by ?? null, json: parsed.values.json === true };
}

type Clock = {
  offsetMs: number;
  offset: string;
  now: string;
  realNow: string;
  due?: { payments: number; checkoutSessions: number; deliveries: number };
  missingRates?: { pair: string; days: string[] }[];
};
type ClockMove = Clock & { advancedByMs: number; expired: { payments: number; checkoutSessions: number }; deliveriesDue: number };

/**
 * `sandpiper clock`: reads or moves the clock (a fresh Idempotency-Key for each move) and says what it did.
 * @returns 0
 * @throws ServiceError (400 VALIDATION_ERROR for a duration the service does not take, 403 without the scope)
 */
export async function runClock(args: ClockArgs): Promise<number> {
  const answer: Clock | ClockMove =
    args.action === "show"
      ? await request<Clock>(args.connection, "GET", "/v1/sandbox/clock")
      : await request<ClockMove>(args.connection, "POST", `/v1/sandbox/clock/${args.action}`, {
          body: args.action === "advance" ? { by: args.by } : undefined,
          idempotencyKey: `sandpiper-clock-${randomUUID()}`,
        });
  if (args.json) {
    console.log(JSON.stringify(answer, null, 2));
    return 0;
  }
  console.log(
    answer.offsetMs === 0
      ? `Sandbox clock: the real time (${answer.now})`
      : `Sandbox clock: ${answer.offset} ahead (sandbox time ${answer.now}, real time ${answer.realNow})`,
  );
  const move = args.action === "advance" ? (answer as ClockMove) : null;
  if (move)
    console.log(
      `Expired now: ${countOf(move.expired.payments, "payment")}, ${countOf(move.expired.checkoutSessions, "checkout session")}. Callback retries due now: ${move.deliveriesDue}.`,
    );
  const due = answer.due;
  if (due && due.payments + due.checkoutSessions + due.deliveries > 0)
    console.log(
      `Still due, being done in batches by the service: ${countOf(due.payments, "payment")} and ${countOf(due.checkoutSessions, "checkout session")} to expire, ${countOf(due.deliveries, "callback")} to send. Follow with: sandpiper clock show`,
    );
  for (const m of answer.missingRates ?? [])
    console.log(`No ${m.pair} rate for ${m.days.join(", ")}: cross-currency payments on those days answer FX_RATE_MISSING until an operator enters it.`);
  return 0;
}
