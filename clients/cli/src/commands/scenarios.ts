// `sandpiper scenarios list|add|add-standard|enable|disable|remove` (docs/callbacks.md "The sandpiper command"): the
// scenario rules of docs/api.md "Scenario rules" from a shell. `list` and `add-standard` are those of
// clients/cli/src/commands/simulate.ts; this module adds the commands that create, switch and delete one rule.
import { randomUUID } from "node:crypto";
import { COMMON_HELP, HELP, connection, idArgument, intOption, parseCommandLine, usage, type Connection, type Env } from "../args";
import { DeletedScenarioRule, ScenarioRule } from "../answers";
import { request } from "../client";
import { SCENARIOS_COMMANDS as LIST_COMMANDS } from "./simulate";

/** The longest delay of a rule, milliseconds (docs/api.md "Scenario rules"). */
const MAX_DELAY_MS = 3_600_000;

export const SCENARIOS_HELP = `Usage: sandpiper scenarios <list | add | add-standard | enable | disable | remove> [options]

Your scenario rules: new payments that match an enabled rule are concluded automatically.
  list                  your rules by position
  add-standard          add the standard set, enabled (amount 13.13 fails, 14.14 expires, 15.15 succeeds;
                        reference fail- fails, ok- succeeds, slow- succeeds after 30 s)
  add --name <text> --outcome <outcome> (--amount <decimal> | --reference-prefix <text>) [options]
                        add a rule of your own, enabled unless --disabled; prints its id
  enable <rule id>      switch a rule on
  disable <rule id>     switch a rule off
  remove <rule id>      delete a rule (payments it already concluded keep their conclusion)

Options of add (the rule's members, docs/api.md "Scenario rules"):
  --name <text>             the name shown on the payments it concludes (required)
  --outcome <outcome>       SUCCEEDED, FAILED or EXPIRE (required)
  --amount <decimal>        match this exact amount, any currency unless --currency, e.g. 13.13
  --reference-prefix <text> match references that start with this text, e.g. fail-
  --currency <code>         only payments in this currency, e.g. EUR
  --method <method>         only BANK_TRANSFER or GATEWAY payments
  --direction <direction>   only DEPOSIT or WITHDRAWAL payments
  --delay <time>            conclude this long after creation: milliseconds (5000) or 5000ms, 5s, 2m; at most 1 h
  --position <n>            its place among your rules, 1 to 1000 (default: after the last)
  --failure-code <code>     with --outcome FAILED: the failure code the payment gets (passed to the service as is)
  --disabled                add it switched off

Options of every scenarios command:
  --json                    print the answer as JSON
${COMMON_HELP}

The key needs the sandbox:simulate scope. A rule the service refuses prints its message and exits 1.`;

/** A parsed `sandpiper scenarios add` command line: the request body of `POST /v1/sandbox/scenario-rules`. */
export type ScenarioAddArgs = { connection: Connection; json: boolean; body: Record<string, unknown> };

/** A parsed `sandpiper scenarios enable|disable|remove <rule id>` command line. */
export type ScenarioChangeArgs = { connection: Connection; json: boolean; action: "enable" | "disable" | "remove"; id: string };

/**
 * A delay option in milliseconds: `5000`, `5000ms`, `5s` or `2m`, 0 to one hour.
 * @throws UsageError for another form or a longer delay
 */
export function delayOption(command: string, value: string): number {
  const m = /^(\d{1,7})(ms|s|m)?$/.exec(value.trim());
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };
  const ms = m ? Number(m[1]) * unit[m[2] ?? "ms"]! : NaN;
  if (!(ms >= 0 && ms <= MAX_DELAY_MS)) throw usage(command, `--delay must be milliseconds (5000) or 5000ms, 5s, 2m, at most 1 h; got "${value}"`);
  return ms;
}

/** An option whose value is one of `allowed` (any case), upper-cased; undefined when absent. @throws UsageError naming them */
function choice(command: string, name: string, value: unknown, allowed: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  const upper = String(value).toUpperCase();
  if (!allowed.includes(upper)) throw usage(command, `--${name} must be ${allowed.join(", ")}`);
  return upper;
}

/**
 * Parses the arguments after `scenarios add` into the rule's JSON: `name`, `enabled` (true unless --disabled),
 * `position`, `match` ({amount, referencePrefix, method, direction, currency}, the ones given), `outcome`, `delayMs`,
 * and `failureCode` as given. Returns HELP for --help. Whether the match is complete is the service's to say.
 * @throws UsageError (one line) for a missing --name or --outcome, an unknown outcome, method or direction, or a malformed delay or position
 */
export function parseScenarioAdd(argv: string[], env: Env): ScenarioAddArgs | typeof HELP {
  const command = "scenarios add";
  const parsed = parseCommandLine(
    command,
    argv,
    {
      name: { type: "string" },
      outcome: { type: "string" },
      amount: { type: "string" },
      "reference-prefix": { type: "string" },
      currency: { type: "string" },
      method: { type: "string" },
      direction: { type: "string" },
      delay: { type: "string" },
      position: { type: "string" },
      "failure-code": { type: "string" },
      disabled: { type: "boolean" },
      json: { type: "boolean" },
    },
    0,
  );
  if (parsed === HELP) return HELP;
  const { values } = parsed;
  const name = values.name;
  if (!name) throw usage(command, 'a --name is required, e.g. --name "EUR 99.99 fails late"');
  const outcome = choice(command, "outcome", values.outcome, ["SUCCEEDED", "FAILED", "EXPIRE"]);
  if (!outcome) throw usage(command, "an --outcome is required: SUCCEEDED, FAILED or EXPIRE");
  const match = Object.fromEntries(
    Object.entries({
      amount: values.amount,
      referencePrefix: values["reference-prefix"],
      method: choice(command, "method", values.method, ["BANK_TRANSFER", "GATEWAY"]),
      direction: choice(command, "direction", values.direction, ["DEPOSIT", "WITHDRAWAL"]),
      currency: values.currency?.toUpperCase(),
    }).filter(([, v]) => v !== undefined),
  );
  const position = intOption(command, "position", values.position, 1, 1000);
  const body: Record<string, unknown> = {
    name,
    enabled: values.disabled !== true,
    ...(position === undefined ? {} : { position }),
    match,
    outcome,
    ...(values.delay === undefined ? {} : { delayMs: delayOption(command, values.delay) }),
    ...(values["failure-code"] === undefined ? {} : { failureCode: values["failure-code"] }),
  };
  return { connection: connection(command, values, env), json: values.json === true, body };
}

/** The parser of `scenarios enable|disable|remove <rule id>`. */
function parseScenarioChange(action: ScenarioChangeArgs["action"]) {
  return (argv: string[], env: Env): ScenarioChangeArgs | typeof HELP => {
    const command = `scenarios ${action}`;
    const parsed = parseCommandLine(command, argv, { json: { type: "boolean" } }, 1);
    if (parsed === HELP) return HELP;
    const id = idArgument(command, "scenario rule id", parsed.positionals[0]);
    return { connection: connection(command, parsed.values, env), json: parsed.values.json === true, action, id };
  };
}

/**
 * `POST /v1/sandbox/scenario-rules` with a fresh Idempotency-Key; prints `Added scenario rule <id>: <name> (on|off)`
 * or the rule as JSON. @returns 0 @throws ServiceError with the service's message when it refuses the rule
 */
export async function runScenarioAdd(args: ScenarioAddArgs): Promise<number> {
  const rule = await request(args.connection, "POST", "/v1/sandbox/scenario-rules", ScenarioRule, {
    body: args.body,
    idempotencyKey: `sandpiper-scenarios-${randomUUID()}`,
  });
  console.log(args.json ? JSON.stringify(rule, null, 2) : `Added scenario rule ${rule.id}: ${rule.name} (${rule.enabled ? "on" : "off"})`);
  return 0;
}

/**
 * `PATCH /v1/sandbox/scenario-rules/{id}` `{"enabled": true|false}`, or `DELETE` for remove, with a fresh
 * Idempotency-Key; prints one line or the answer as JSON. @returns 0 @throws ServiceError when the service refuses
 * (404 for a rule that is not the merchant's)
 */
export async function runScenarioChange(args: ScenarioChangeArgs): Promise<number> {
  const path = `/v1/sandbox/scenario-rules/${args.id}`;
  const idempotencyKey = `sandpiper-scenarios-${randomUUID()}`;
  if (args.action === "remove") {
    const answer = await request(args.connection, "DELETE", path, DeletedScenarioRule, { idempotencyKey });
    console.log(args.json ? JSON.stringify(answer, null, 2) : `Removed scenario rule ${args.id}`);
    return 0;
  }
  const rule = await request(args.connection, "PATCH", path, ScenarioRule, { body: { enabled: args.action === "enable" }, idempotencyKey });
  console.log(args.json ? JSON.stringify(rule, null, 2) : `Scenario rule ${rule.id} (${rule.name}) is now ${rule.enabled ? "on" : "off"}`);
  return 0;
}

/** Every `sandpiper scenarios` command: its help, parser and runner. */
export const SCENARIOS_COMMANDS = {
  list: { ...LIST_COMMANDS.list, help: SCENARIOS_HELP },
  add: { help: SCENARIOS_HELP, parse: parseScenarioAdd, run: runScenarioAdd },
  "add-standard": { ...LIST_COMMANDS["add-standard"], help: SCENARIOS_HELP },
  enable: { help: SCENARIOS_HELP, parse: parseScenarioChange("enable"), run: runScenarioChange },
  disable: { help: SCENARIOS_HELP, parse: parseScenarioChange("disable"), run: runScenarioChange },
  remove: { help: SCENARIOS_HELP, parse: parseScenarioChange("remove"), run: runScenarioChange },
} as const;
