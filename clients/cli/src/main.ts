// The `sandpiper` command (docs/callbacks.md "The sandpiper command"): finds the command named by the first words
// of the command line, parses its options (clients/cli/src/commands/) and runs it. Exit codes: 0 done, 1 the service
// refused or failed, 2 a usage error.
import { COMMON_HELP, HELP, readEnv, UsageError, type Env } from "./args";
import { ServiceError } from "./client";
import { CALLBACKS_HELP, parseCallbacks, runCallbacks } from "./commands/callbacks";
import { CLOCK_HELP, parseClock, runClock } from "./commands/clock";
import { EVENTS_COMMANDS, EVENTS_HELP, unknownEventsCommand } from "./commands/events";
import { LISTEN_HELP, parseListen, runListen } from "./commands/listen";
import { LOGS_COMMANDS } from "./commands/logs";
import { parseTrigger, runTrigger, TRIGGER_HELP } from "./commands/trigger";
import { SCENARIOS_COMMANDS, SCENARIOS_HELP } from "./commands/scenarios";
import { parseSimulate, runSimulate, SIMULATE_HELP } from "./commands/simulate";

export const MAIN_HELP = `Usage: sandpiper <command> [options]

Commands:
  listen --forward-to <url>   forward your events to a receiver on this machine, signed like callbacks
                              (also: --forward <event type>=<url> per type, --events, --print-secret)
  events list                 your events, newest first
  events get <event id>       one event with its deliveries, as JSON
  events resend <event id>    deliver an event again, to running listeners and your callback address
  trigger <event type>        make a test payment that ends in payment.succeeded, payment.failed or payment.expired
  logs tail                   follow your API requests as they are answered (the request log)
  simulate <helper> <id>      move a sandbox object forward now: succeed, fail, expire, quote, confirm, pay,
                              decline, session-expire, attempt-now (the test helpers)
  scenarios list              your scenario rules
  scenarios add-standard      add the standard set of scenario rules, enabled
  scenarios add --name <text> --outcome <outcome> --amount <decimal>|--reference-prefix <text>
                              add a rule of your own (also: scenarios enable|disable|remove <rule id>)
  clock advance <duration>    move your sandbox time ahead (also: clock show, clock reset)
  callbacks rotate-secret     a new callback secret, the old one signing beside it for an overlap (also:
                              callbacks secret, callbacks end-overlap)

Options of every command:
${COMMON_HELP}

Run "sandpiper <command> --help" for a command's options. Exit codes: 0 done, 1 the service refused
the request or could not be reached, 2 a mistake in the command line.`;

/** A command: its help text, its parser (pure: arguments and variables in, options out) and its runner. */
type Command = { help: string; parse: (argv: string[], env: Env) => unknown; run: (args: never) => Promise<number> };

const COMMANDS: Record<string, Command> = {
  listen: { help: LISTEN_HELP, parse: parseListen, run: runListen },
  trigger: { help: TRIGGER_HELP, parse: parseTrigger, run: runTrigger },
  simulate: { help: SIMULATE_HELP, parse: parseSimulate, run: runSimulate },
  ...Object.fromEntries(Object.entries(SCENARIOS_COMMANDS).map(([name, c]) => [`scenarios ${name}`, c])),
  clock: { help: CLOCK_HELP, parse: parseClock, run: runClock },
  callbacks: { help: CALLBACKS_HELP, parse: parseCallbacks, run: runCallbacks },
  ...Object.fromEntries(Object.entries(EVENTS_COMMANDS).map(([name, c]) => [`events ${name}`, c])),
  ...Object.fromEntries(Object.entries(LOGS_COMMANDS).map(([name, c]) => [`logs ${name}`, c])),
};

/**
 * The command {@link route} named.
 * @throws UsageError for a name that is not a command's own (route gives only those)
 */
function commandNamed(name: string): Command {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`sandpiper: unknown command "${name}" (run "sandpiper --help")`);
  return command;
}

const isHelp = (word: string | undefined) => word === "-h" || word === "--help" || word === "help";

/**
 * Which command `argv` names: `{ name, rest }` for a command, or the help text to print with its exit code
 * (`sandpiper`, `sandpiper events` alone: 2; `--help`, `help <command>`: 0).
 * @throws UsageError for an unknown command
 */
export function route(argv: string[]): { name: string; rest: string[] } | { help: string; code: 0 | 2 } {
  const [first, second, ...more] = argv;
  if (first === undefined) return { help: MAIN_HELP, code: 2 };
  if (isHelp(first)) {
    if (second === undefined) return { help: MAIN_HELP, code: 0 };
    const target = route([second, ...more.filter((w) => !isHelp(w)), "--help"]);
    return "help" in target ? target : { help: commandNamed(target.name).help, code: 0 };
  }
  if (first === "events") {
    if (second === undefined) return { help: EVENTS_HELP, code: 2 };
    if (isHelp(second)) return { help: EVENTS_HELP, code: 0 };
    if (!(second in EVENTS_COMMANDS)) throw unknownEventsCommand(second);
    return { name: `events ${second}`, rest: more };
  }
  if (first === "logs") {
    if (second === undefined || isHelp(second)) return { help: LOGS_COMMANDS.tail.help, code: second === undefined ? 2 : 0 };
    if (!(second in LOGS_COMMANDS)) throw new UsageError(`sandpiper logs: unknown command "${second}": use tail (run "sandpiper logs tail --help")`);
    return { name: `logs ${second}`, rest: more };
  }
  if (first === "scenarios") {
    if (second === undefined || isHelp(second)) return { help: SCENARIOS_HELP, code: second === undefined ? 2 : 0 };
    if (!(second in SCENARIOS_COMMANDS))
      throw new UsageError(
        `sandpiper scenarios: unknown command "${second}": use ${Object.keys(SCENARIOS_COMMANDS).join(", ")} (run "sandpiper scenarios --help")`,
      );
    return { name: `scenarios ${second}`, rest: more };
  }
  if (first in COMMANDS) return { name: first, rest: [second, ...more].filter((w) => w !== undefined) };
  throw new UsageError(
    `sandpiper: unknown command "${first}": use listen, events, trigger, logs, clock, callbacks, simulate or scenarios (run "sandpiper --help")`,
  );
}

/**
 * Runs the command line `argv` (without node and the script); resolves with the exit code: 0 done, 1 the service
 * refused or failed (one line with the error envelope's code, message and requestId, and what to do), 2 a usage
 * error (one line). The API key is never printed.
 */
export async function main(argv: string[]): Promise<number> {
  try {
    const target = route(argv);
    if ("help" in target) {
      (target.code === 0 ? console.log : console.error)(target.help);
      return target.code;
    }
    const command = commandNamed(target.name);
    const args = command.parse(target.rest, readEnv(process.env));
    if (args === HELP) {
      console.log(command.help);
      return 0;
    }
    return await command.run(args as never);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return 2;
    }
    if (error instanceof ServiceError) {
      console.error(error.line());
      return 1;
    }
    throw error;
  }
}
