// `sandpiper simulate <helper> <id>` and `sandpiper scenarios list|add-standard` (docs/callbacks.md "The sandpiper
// command"): the test helpers (docs/api.md "Test helpers") and scenario rules (docs/api.md "Scenario rules") by name.
import { randomUUID } from "node:crypto";
import { COMMON_HELP, HELP, connection, idArgument, parseCommandLine, usage, type Connection, type Env } from "../args";
import type { z } from "zod";
import { HelperAnswer, ScenarioRuleList } from "../answers";
import { request } from "../client";

type Helper = {
  what: string;
  path: (id: string) => string;
  body?: (amount: { amount: string; currency: string } | null, failureCode: string | null) => unknown;
  needsAmount?: boolean;
  /** Takes --code <failure_code> (docs/api.md "Failure codes"). */
  takesCode?: boolean;
  object: "payment" | "checkout session" | "store payment" | "delivery";
};

/** Each helper name, the endpoint it calls and what its id names. */
export const SIMULATE_HELPERS: Record<string, Helper> = {
  succeed: {
    what: "conclude a pending payment as SUCCEEDED",
    path: (id) => `/v1/sandbox/payments/${id}/complete`,
    body: () => ({ outcome: "SUCCEEDED" }),
    object: "payment",
  },
  fail: {
    what: "conclude a pending payment as FAILED (--code: with a failure code)",
    path: (id) => `/v1/sandbox/payments/${id}/complete`,
    body: (_amount, failureCode) => (failureCode ? { outcome: "FAILED", failureCode } : { outcome: "FAILED" }),
    takesCode: true,
    object: "payment",
  },
  expire: { what: "expire a pending payment now", path: (id) => `/v1/sandbox/payments/${id}/expire`, object: "payment" },
  "session-expire": { what: "expire a checkout session now", path: (id) => `/v1/sandbox/checkout-sessions/${id}/expire`, object: "checkout session" },
  quote: {
    what: "the customer chooses --amount and --currency on a checkout session",
    path: (id) => `/v1/sandbox/checkout-sessions/${id}/quote`,
    body: (a) => a,
    needsAmount: true,
    object: "checkout session",
  },
  confirm: {
    what: "the customer confirms the quoted total (--amount, --currency as quoted)",
    path: (id) => `/v1/sandbox/checkout-sessions/${id}/confirm`,
    body: (a) => a,
    needsAmount: true,
    object: "checkout session",
  },
  pay: {
    what: "the store page's Pay on a READY store payment",
    path: (id) => `/v1/sandbox/store-payments/${id}/confirm`,
    body: () => ({ outcome: "SUCCEEDED" }),
    object: "store payment",
  },
  decline: {
    what: "the store page's Decline on a READY store payment",
    path: (id) => `/v1/sandbox/store-payments/${id}/confirm`,
    body: () => ({ outcome: "FAILED" }),
    object: "store payment",
  },
  "attempt-now": { what: "make a pending callback delivery's next attempt due now", path: (id) => `/v1/sandbox/deliveries/${id}/attempt`, object: "delivery" },
};

export const SIMULATE_HELP = `Usage: sandpiper simulate <helper> <id> [options]

Moves a sandbox object forward now, through the service's test helpers (POST /v1/sandbox/...):
${Object.entries(SIMULATE_HELPERS)
  .map(([name, h]) => `  ${name.padEnd(15)} <${h.object} id>  ${h.what}`)
  .join("\n")}

Options:
  --amount <decimal>    quote and confirm: the amount the customer enters, e.g. 250.00
  --currency <code>     quote and confirm: its currency, e.g. USD
  --code <failure_code> fail: why it failed, e.g. insufficient_funds (the payment shows failure {code, message};
                        docs/api.md "Failure codes" lists them, and an unknown one is refused with the list)
  --json                print the answer as JSON
${COMMON_HELP}

The key needs the sandbox:simulate scope.`;

const HELPER_NAMES = Object.keys(SIMULATE_HELPERS).join(", ");

/**
 * The helper called `name` (an own key of {@link SIMULATE_HELPERS}: "toString" is not one).
 * @throws UsageError for a name that is not a helper's
 */
function helperNamed(name: string): Helper {
  const h = Object.hasOwn(SIMULATE_HELPERS, name) ? SIMULATE_HELPERS[name] : undefined;
  if (!h) throw usage("simulate", `unknown helper "${name}": use ${HELPER_NAMES}`);
  return h;
}

/** A parsed `sandpiper simulate` command line. */
export type SimulateArgs = {
  connection: Connection;
  helper: string;
  id: string;
  amount: { amount: string; currency: string } | null;
  /** fail --code: the failure code to send, checked by the service; null without --code. */
  failureCode: string | null;
  json: boolean;
};

/**
 * Parses the arguments after `simulate`. Returns HELP for --help.
 * @throws UsageError (one line) for a missing or unknown helper, a malformed id, a missing --amount/--currency, or
 *   --code on a helper other than fail (or without a value).
 */
export function parseSimulate(argv: string[], env: Env): SimulateArgs | typeof HELP {
  const parsed = parseCommandLine(
    "simulate",
    argv,
    { amount: { type: "string" }, currency: { type: "string" }, code: { type: "string" }, json: { type: "boolean" } },
    2,
  );
  if (parsed === HELP) return HELP;
  const { values, positionals } = parsed;
  const helper = positionals[0];
  if (!helper) throw usage("simulate", `a helper is required: ${HELPER_NAMES}`);
  const h = helperNamed(helper);
  const id = idArgument("simulate", `${h.object} id`, positionals[1]);
  let amount: SimulateArgs["amount"] = null;
  if (h.needsAmount) {
    const a = values.amount;
    const c = values.currency?.toUpperCase();
    if (!a || !/^\d{1,10}(\.\d{1,2})?$/.test(a)) throw usage("simulate", `${helper} needs --amount, a decimal like 250.00`);
    if (!c || !/^[A-Z]{3}$/.test(c)) throw usage("simulate", `${helper} needs --currency, a three-letter code like USD`);
    amount = { amount: a, currency: c };
  } else if (values.amount !== undefined || values.currency !== undefined) {
    throw usage("simulate", "--amount and --currency are for quote and confirm only");
  }
  const code = values.code;
  if (code !== undefined && !h.takesCode) throw usage("simulate", "--code is for fail only");
  if (code !== undefined && code.trim() === "") throw usage("simulate", "--code needs a failure code, e.g. insufficient_funds");
  return { connection: connection("simulate", values, env), helper, id, amount, failureCode: code?.trim() ?? null, json: values.json === true };
}

/** One line saying where the object is now. */
function summary(h: Helper, a: z.output<typeof HelperAnswer>): string {
  if (h.object === "delivery") return `Delivery ${a.id} of event ${a.eventId}: ${a.state}, next attempt ${a.nextAttemptAt ? "due now" : "none"}`;
  if (h.object === "checkout session") {
    const quoted = a.quote ? `: ${a.amount} ${a.currency} = ${a.quote.chargeAmount} ${a.quote.chargeCurrency}` : "";
    return `Checkout session ${a.id} is now ${a.state}${quoted}`;
  }
  const failure = a.failure ? `: ${a.failure.code} (${a.failure.message})` : "";
  return `Payment ${a.id} is now ${a.status}${failure}${a.checkout ? ` (checkout ${a.checkout.state})` : ""}`;
}

/**
 * Calls the helper's endpoint once (a fresh Idempotency-Key) and prints one line, or the answer with --json.
 * @returns 0 when the service answered 2xx
 * @throws ServiceError when it refused (one line with code, message and requestId)
 */
export async function runSimulate(args: SimulateArgs): Promise<number> {
  const h = helperNamed(args.helper);
  const answer = await request(args.connection, "POST", h.path(args.id), HelperAnswer, {
    body: h.body ? h.body(args.amount, args.failureCode) : undefined,
    idempotencyKey: `sandpiper-simulate-${randomUUID()}`,
  });
  console.log(args.json ? JSON.stringify(answer, null, 2) : summary(h, answer));
  return 0;
}

export const SCENARIOS_HELP = `Usage: sandpiper scenarios <list | add-standard> [options]

Your scenario rules: new payments that match an enabled rule are concluded automatically.
  list            your rules by position
  add-standard    add the standard set, enabled (amount 13.13 fails, 14.14 expires, 15.15 succeeds;
                  reference fail- fails, ok- succeeds, slow- succeeds after 30 s)

Options:
  --json                print the rules as JSON
${COMMON_HELP}

The key needs the sandbox:simulate scope.`;

/** A parsed `sandpiper scenarios list|add-standard` command line. */
export type ScenariosArgs = { connection: Connection; add: boolean; json: boolean };

function parseScenarios(add: boolean) {
  return (argv: string[], env: Env): ScenariosArgs | typeof HELP => {
    const command = `scenarios ${add ? "add-standard" : "list"}`;
    const parsed = parseCommandLine(command, argv, { json: { type: "boolean" } }, 0);
    if (parsed === HELP) return HELP;
    return { connection: connection(command, parsed.values, env), add, json: parsed.values.json === true };
  };
}

/** Lists the rules (after adding the standard set for add-standard), one line each. */
async function runScenarios(args: ScenariosArgs): Promise<number> {
  const page = args.add
    ? await request(args.connection, "POST", "/v1/sandbox/scenario-rules/standard", ScenarioRuleList, {
        idempotencyKey: `sandpiper-scenarios-${randomUUID()}`,
      })
    : await request(args.connection, "GET", "/v1/sandbox/scenario-rules", ScenarioRuleList);
  if (args.json) {
    console.log(JSON.stringify(page.items, null, 2));
    return 0;
  }
  if (page.items.length === 0) console.log("No scenario rules yet: sandpiper scenarios add-standard adds the standard set.");
  for (const r of page.items) {
    const match = Object.entries(r.match)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    console.log(
      `${String(r.position).padStart(3)}  ${r.enabled ? "on " : "off"}  ${r.name}  [${match}] -> ${r.outcome}${r.delayMs ? ` after ${r.delayMs} ms` : ""}  ${r.id}`,
    );
  }
  return 0;
}

export const SCENARIOS_COMMANDS = {
  list: { help: SCENARIOS_HELP, parse: parseScenarios(false), run: runScenarios },
  "add-standard": { help: SCENARIOS_HELP, parse: parseScenarios(true), run: runScenarios },
} as const;
