// `sandpiper clock show | advance | reset` (docs/api.md "Sandbox clock"): the merchant's sandbox clock from the
// command line, for a test suite that moves time (POST /v1/sandbox/clock/advance and /reset).
import { randomUUID } from "node:crypto";
import { COMMON_HELP, HELP, choiceOf, connection, parseCommandLine, usage, type Connection, type Env } from "../args";
import { Clock, ClockMove } from "../answers";
import { request } from "../client";

/** "1 payment", "3 payments", "0 checkout sessions": the nouns this command counts all take a plain "s". */
const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

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
  const [given, by] = parsed.positionals;
  const action = choiceOf(SUBCOMMANDS, given);
  if (!action) throw usage("clock", `${given ? `unknown command "${given}"` : "a command is required"}: use show, advance <duration> or reset`);
  if (action === "advance" && !by) throw usage("clock", "advance needs a duration, e.g. sandpiper clock advance 2h");
  if (action !== "advance" && by) throw usage("clock", `${action} takes no duration`);
  return { connection: connection("clock", parsed.values, env), action, by: by ?? null, json: parsed.values.json === true };
}

/**
 * `sandpiper clock`: reads or moves the clock (a fresh Idempotency-Key for each move) and says what it did.
 * @returns 0
 * @throws ServiceError (400 VALIDATION_ERROR for a duration the service does not take, 403 without the scope)
 */
export async function runClock(args: ClockArgs): Promise<number> {
  const move =
    args.action === "show"
      ? null
      : await request(args.connection, "POST", `/v1/sandbox/clock/${args.action}`, ClockMove, {
          body: args.action === "advance" ? { by: args.by } : undefined,
          idempotencyKey: `sandpiper-clock-${randomUUID()}`,
        });
  const answer = move ?? (await request(args.connection, "GET", "/v1/sandbox/clock", Clock));
  if (args.json) {
    console.log(JSON.stringify(answer, null, 2));
    return 0;
  }
  console.log(
    answer.offsetMs === 0
      ? `Sandbox clock: the real time (${answer.now})`
      : `Sandbox clock: ${answer.offset} ahead (sandbox time ${answer.now}, real time ${answer.realNow})`,
  );
  const advanced = args.action === "advance" ? move : null;
  if (advanced)
    console.log(
      `Expired now: ${countOf(advanced.expired.payments, "payment")}, ${countOf(advanced.expired.checkoutSessions, "checkout session")}. Callback retries due now: ${advanced.deliveriesDue}.`,
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
