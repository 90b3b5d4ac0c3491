import { parseLogsTail } from "./commands/logs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HELP, readEnv, UsageError } from "./args";
import { parseEventsGet, parseEventsList, parseEventsResend } from "./commands/events";
import { parseListen } from "./commands/listen";
import { parseTrigger, TRIGGER_DEFAULTS } from "./commands/trigger";
import { parseClock } from "./commands/clock";
import { parseSimulate } from "./commands/simulate";
import { delayOption, parseScenarioAdd, SCENARIOS_COMMANDS } from "./commands/scenarios";
import { main, route } from "./main";
import { present } from "../../../scripts/harness/present";

// The argument parsing of `sandpiper` (docs/callbacks.md "The sandpiper command"): pure functions from the command
// line and the variables to options, or one-line usage errors (exit 2).

const KEY = "sk_sandbox_secret-value-never-printed";
const env = { SANDPIPER_API_KEY: KEY };
const ID = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";

/** The UsageError message `parse` throws. */
function usageOf(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message, "one line").not.toContain("\n");
    expect(message, "never the key").not.toContain(KEY);
    return message;
  }
  throw new Error("no usage error");
}

describe("route", () => {
  it("finds commands and subcommands; help is exit 0, a bare group is exit 2, an unknown word a usage error", () => {
    expect(route(["listen", "--forward-to", "http://x"])).toEqual({ name: "listen", rest: ["--forward-to", "http://x"] });
    expect(route(["events", "resend", ID])).toEqual({ name: "events resend", rest: [ID] });
    expect(route(["trigger", "payment.failed"])).toEqual({ name: "trigger", rest: ["payment.failed"] });
    expect(route([])).toMatchObject({ code: 2, help: expect.stringMatching(/^Usage: sandpiper <command>/) });
    expect(route(["--help"])).toMatchObject({ code: 0 });
    expect(route(["events"])).toMatchObject({ code: 2, help: expect.stringMatching(/^Usage: sandpiper events </) });
    expect(route(["events", "-h"])).toMatchObject({ code: 0, help: expect.stringMatching(/^Usage: sandpiper events </) });
    expect(route(["help", "events", "list"])).toMatchObject({ code: 0, help: expect.stringMatching(/^Usage: sandpiper events list/) });
    expect(route(["help", "trigger"])).toMatchObject({ code: 0, help: expect.stringMatching(/^Usage: sandpiper trigger/) });
    expect(usageOf(() => route(["deploy"]))).toBe(
      'sandpiper: unknown command "deploy": use listen, events, trigger, logs, clock, callbacks, simulate or scenarios (run "sandpiper --help")',
    );
    expect(usageOf(() => route(["events", "delete"]))).toMatch(/^sandpiper events: unknown command "delete": use list, get or resend/);
  });
});

describe("common options", () => {
  it("--api-key wins over SANDPIPER_API_KEY; --api-url over SANDPIPER_API_URL over http://localhost:3000", () => {
    expect(parseEventsGet([ID], env)).toEqual({ eventId: ID, connection: { apiKey: KEY, apiUrl: "http://localhost:3000" } });
    expect(parseEventsGet([ID, "--api-key", "sk_sandbox_flag", "--api-url", "http://h:1/"], { ...env, SANDPIPER_API_URL: "http://env:2" })).toMatchObject({
      connection: { apiKey: "sk_sandbox_flag", apiUrl: "http://h:1" },
    });
    expect(parseEventsGet([ID], { ...env, SANDPIPER_API_URL: "https://sandbox.example" })).toMatchObject({ connection: { apiUrl: "https://sandbox.example" } });
    expect(usageOf(() => parseEventsGet([ID], {}))).toMatch(
      /^sandpiper events get: an API key is required: pass --api-key sk_sandbox_\.\.\. or set SANDPIPER_API_KEY/,
    );
    expect(usageOf(() => parseEventsGet([ID], { ...env, SANDPIPER_API_URL: "localhost:3000" }))).toMatch(/--api-url must be an http:\/\/ or https:\/\/ URL/);
  });

  it("reads the key and URL from ./.env when the environment has none; the environment wins", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-env-"));
    const file = path.join(dir, ".env");
    fs.writeFileSync(file, 'DATABASE_URL=postgresql://x\nSANDPIPER_API_KEY="sk_sandbox_from_file"\nSANDPIPER_API_URL=http://file:3000\n');
    expect(readEnv({}, file)).toEqual({ SANDPIPER_API_KEY: "sk_sandbox_from_file", SANDPIPER_API_URL: "http://file:3000" });
    expect(readEnv({ SANDPIPER_API_KEY: "sk_sandbox_env" }, file)).toEqual({ SANDPIPER_API_KEY: "sk_sandbox_env", SANDPIPER_API_URL: "http://file:3000" });
    expect(readEnv({}, path.join(dir, "missing"))).toEqual({ SANDPIPER_API_KEY: undefined, SANDPIPER_API_URL: undefined });
  });

  it("--help and -h on every command answer HELP, before any other check", () => {
    for (const parse of [parseListen, parseEventsList, parseEventsGet, parseEventsResend, parseTrigger]) {
      expect(parse(["--help"], {})).toBe(HELP);
      expect(parse(["-h"], {})).toBe(HELP);
    }
  });

  it("unknown options, missing values and extra arguments are one-line usage errors naming the command's help", () => {
    expect(usageOf(() => parseEventsList(["--bogus"], env))).toBe(
      'sandpiper events list: unknown option --bogus (run "sandpiper events list --help" for the options)',
    );
    expect(usageOf(() => parseEventsList(["--limit"], env))).toMatch(/option --limit needs a value/);
    expect(usageOf(() => parseEventsList(["--limit", "--json"], env))).toMatch(/option --limit needs a value/);
    expect(usageOf(() => parseEventsList(["-x"], env))).toMatch(/unknown option -x/);
    expect(usageOf(() => parseEventsList(["--json=yes"], env))).toMatch(/option --json takes no value/);
    expect(usageOf(() => parseEventsGet([ID, ID], env))).toMatch(new RegExp(`unexpected argument "${ID}"`));
  });
});

describe("listen", () => {
  it("parses the listener's options, --max-attempts included", () => {
    const args = parseListen(
      [
        "--forward-to",
        "http://localhost:4000/hook",
        "--events",
        "payment.failed, payment.expired",
        "--from-now",
        "--state-file",
        "/tmp/s.json",
        "--max-attempts",
        "3",
      ],
      env,
    );
    expect(args).toEqual({
      printSecret: false,
      connection: { apiKey: KEY, apiUrl: "http://localhost:3000" },
      routes: [{ type: null, url: "http://localhost:4000/hook" }],
      types: ["payment.failed", "payment.expired"],
      stateFile: "/tmp/s.json",
      fromNow: true,
      maxAttempts: 3,
      serviceSchedule: false,
    });
    const plain = parseListen(["--forward-to", "http://localhost:4000/hook"], env);
    expect(plain).toMatchObject({ types: [], fromNow: false, stateFile: expect.stringContaining("listen-"), serviceSchedule: false });
    expect(parseListen(["--forward-to", "http://localhost:4000/hook", "--retry-schedule", "service"], env)).toMatchObject({ serviceSchedule: true });
    expect(() => parseListen(["--forward-to", "http://localhost:4000/hook", "--retry-schedule", "soon"], env)).toThrow(
      /--retry-schedule must be listener or service, not "soon"/,
    );
    expect(() => parseListen(["--print-secret", "--retry-schedule", "service"], env)).toThrow(/does not go with --retry-schedule/);
    expect(plain).not.toHaveProperty("maxAttempts");
  });

  it("refuses what it cannot run", () => {
    expect(usageOf(() => parseListen([], {}))).toMatch(/--forward-to is required/);
    expect(usageOf(() => parseListen(["--forward-to", "localhost:4000"], env))).toMatch(/--forward-to must be an http/);
    expect(usageOf(() => parseListen(["--forward-to", "http://x", "--events", "payment.refunded"], env))).toMatch(/--events: unknown type payment\.refunded/);
    for (const n of ["0", "101", "2.5", "x"])
      expect(usageOf(() => parseListen(["--forward-to", "http://x", "--max-attempts", n], env))).toMatch(/--max-attempts must be a whole number from 1 to 100/);
  });

  it('takes a route per event type beside the default route (docs/callbacks.md "Routes and filters")', () => {
    const failed = "http://localhost:8080/failed";
    const expired = "http://localhost:8081/expired";
    expect(
      parseListen(["--forward", `payment.failed=${failed}`, "--forward-to", "http://localhost:4000/hook", "--forward", `payment.expired=${expired}`], env),
    ).toMatchObject({
      routes: [
        { type: "payment.failed", url: failed },
        { type: "payment.expired", url: expired },
        { type: null, url: "http://localhost:4000/hook" },
      ],
    });
    // Without --forward-to: only the routed types are forwarded, the others skipped.
    expect(parseListen(["--forward", `payment.failed=${failed}`], env)).toMatchObject({ routes: [{ type: "payment.failed", url: failed }], types: [] });
    // --events and routes that agree.
    expect(parseListen(["--forward", `payment.failed=${failed}`, "--events", "payment.failed"], env)).toMatchObject({ types: ["payment.failed"] });
  });

  it("refuses routes and combinations that cannot work", () => {
    const failed = "payment.failed=http://localhost:8080/failed";
    expect(usageOf(() => parseListen(["--forward", failed, "--forward", "payment.failed=http://localhost:9/other"], env))).toMatch(
      /--forward payment\.failed is given twice: a type has one URL/,
    );
    expect(usageOf(() => parseListen(["--forward", "payment.refunded=http://x/"], env))).toMatch(
      /--forward: unknown event type "payment\.refunded"; use payment\.succeeded, payment\.failed, payment\.expired/,
    );
    expect(usageOf(() => parseListen(["--forward", "http://localhost:8080/failed"], env))).toMatch(/--forward takes <event type>=<url>/);
    expect(usageOf(() => parseListen(["--forward", "payment.failed=localhost:8080"], env))).toMatch(/must be an http/);
    expect(usageOf(() => parseListen(["--forward", failed, "--events", "payment.succeeded"], env))).toMatch(
      /--forward payment\.failed=\.\.\. would get nothing: --events leaves payment\.failed out/,
    );
    expect(usageOf(() => parseListen(["--forward", failed, "--events", "payment.failed,payment.succeeded"], env))).toMatch(
      /--events payment\.succeeded has no route: add --forward payment\.succeeded=<url> or --forward-to <url>/,
    );
  });

  it("--print-secret needs only the key (and the service, for the secret's generation) and goes with no listener option", () => {
    expect(parseListen(["--print-secret"], env)).toMatchObject({ printSecret: true, connection: { apiKey: KEY } });
    expect(parseListen(["--print-secret", "--api-key", "sk_sandbox_other"], {})).toMatchObject({
      printSecret: true,
      connection: { apiKey: "sk_sandbox_other" },
    });
    expect(usageOf(() => parseListen(["--print-secret"], {}))).toMatch(/an API key is required/);
    expect(usageOf(() => parseListen(["--print-secret", "--forward-to", "http://x", "--from-now"], env))).toMatch(
      /--print-secret only prints the secret: it does not go with --forward-to, --from-now/,
    );
  });
});

describe("scenarios", () => {
  it("add maps its options to the rule's JSON, enabled unless --disabled; failureCode passes through as given", () => {
    expect(
      parseScenarioAdd(
        [
          "--name",
          "EUR 99.99 fails late",
          "--amount",
          "99.99",
          "--currency",
          "eur",
          "--method",
          "gateway",
          "--outcome",
          "failed",
          "--delay",
          "5s",
          "--failure-code",
          "card_declined",
        ],
        env,
      ),
    ).toEqual({
      connection: { apiKey: KEY, apiUrl: "http://localhost:3000" },
      json: false,
      body: {
        name: "EUR 99.99 fails late",
        enabled: true,
        match: { amount: "99.99", method: "GATEWAY", currency: "EUR" },
        outcome: "FAILED",
        delayMs: 5000,
        failureCode: "card_declined",
      },
    });
    expect(
      parseScenarioAdd(["--name", "n", "--reference-prefix", "ok-", "--outcome", "SUCCEEDED", "--disabled", "--position", "2", "--json"], env),
    ).toMatchObject({
      json: true,
      body: { name: "n", enabled: false, position: 2, match: { referencePrefix: "ok-" }, outcome: "SUCCEEDED" },
    });
    expect([delayOption("x", "2500"), delayOption("x", "2500ms"), delayOption("x", "5s"), delayOption("x", "2m"), delayOption("x", "60m")]).toEqual([
      2500, 2500, 5000, 120_000, 3_600_000,
    ]);
  });

  it("refuses what it cannot send", () => {
    expect(usageOf(() => parseScenarioAdd(["--outcome", "FAILED", "--amount", "1.00"], env))).toMatch(/a --name is required/);
    expect(usageOf(() => parseScenarioAdd(["--name", "n", "--amount", "1.00"], env))).toMatch(/an --outcome is required: SUCCEEDED, FAILED or EXPIRE/);
    expect(usageOf(() => parseScenarioAdd(["--name", "n", "--outcome", "LATER"], env))).toMatch(/--outcome must be SUCCEEDED, FAILED, EXPIRE/);
    expect(usageOf(() => parseScenarioAdd(["--name", "n", "--outcome", "FAILED", "--delay", "61m"], env))).toMatch(/--delay must be milliseconds/);
    expect(usageOf(() => parseScenarioAdd(["--name", "n", "--outcome", "FAILED", "--delay", "soon"], env))).toMatch(/--delay must be milliseconds/);
    expect(usageOf(() => SCENARIOS_COMMANDS.enable.parse([], env))).toMatch(/the scenario rule id is required/);
    expect(usageOf(() => SCENARIOS_COMMANDS.remove.parse(["rule-1"], env))).toMatch(/"rule-1" is not a scenario rule id \(a uuid\)/);
    expect(SCENARIOS_COMMANDS.disable.parse([ID], env)).toMatchObject({ action: "disable", id: ID });
    expect(usageOf(() => route(["scenarios", "rename"]))).toMatch(/use list, add, add-standard, enable, disable, remove/);
  });
});

describe("events", () => {
  it("list: filters and limit", () => {
    expect(parseEventsList([], env)).toMatchObject({ limit: 20, json: false, type: undefined, paymentId: undefined });
    expect(parseEventsList(["--type", "payment.failed", "--payment", ID.toUpperCase(), "--limit", "100", "--json"], env)).toMatchObject({
      type: "payment.failed",
      paymentId: ID,
      limit: 100,
      json: true,
    });
    expect(usageOf(() => parseEventsList(["--type", "refund"], env))).toMatch(
      /unknown event type "refund": use payment\.succeeded, payment\.failed, payment\.expired/,
    );
    expect(usageOf(() => parseEventsList(["--payment", "order-1001"], env))).toMatch(/"order-1001" is not a payment id \(a uuid\)/);
    expect(usageOf(() => parseEventsList(["--limit", "101"], env))).toMatch(/--limit must be a whole number from 1 to 100/);
  });

  it("get and resend need one event id", () => {
    expect(parseEventsResend([ID, "--json"], env)).toMatchObject({ eventId: ID, json: true });
    expect(usageOf(() => parseEventsResend([], env))).toMatch(/^sandpiper events resend: the event id is required/);
    expect(usageOf(() => parseEventsGet(["12"], env))).toMatch(/"12" is not an event id \(a uuid\)/);
  });
});

describe("trigger", () => {
  it("defaults to the seeded merchant's USD gateway deposit; options override", () => {
    const args = parseTrigger(["payment.succeeded"], env);
    expect(args).toMatchObject({
      type: "payment.succeeded",
      ...TRIGGER_DEFAULTS,
      reference: expect.stringMatching(/^sandpiper-trigger-[0-9a-f]{8}$/),
      json: false,
    });
    expect(
      parseTrigger(["payment.expired", "--amount", "250.5", "--currency", "eur", "--method", "bank_transfer", "--reference", "order-9"], env),
    ).toMatchObject({ type: "payment.expired", amount: "250.5", currency: "EUR", method: "BANK_TRANSFER", reference: "order-9" });
  });

  it("refuses a missing or unknown event type and malformed deposits", () => {
    expect(usageOf(() => parseTrigger([], env))).toMatch(
      /^sandpiper trigger: an event type is required: payment\.succeeded, payment\.failed, payment\.expired/,
    );
    expect(usageOf(() => parseTrigger(["payment.refunded"], env))).toMatch(/unknown event type "payment\.refunded"/);
    expect(usageOf(() => parseTrigger(["payment.failed", "--amount", "1,000"], env))).toMatch(/--amount must be a decimal like 10\.00/);
    expect(usageOf(() => parseTrigger(["payment.failed", "--currency", "dollars"], env))).toMatch(/--currency must be a three-letter/);
    expect(usageOf(() => parseTrigger(["payment.failed", "--method", "CARD"], env))).toMatch(/--method must be GATEWAY or BANK_TRANSFER/);
  });
});

describe("the documented command lines", () => {
  it("every `sandpiper ...` line in the code blocks of the README, the guides and docs/callbacks.md parses", () => {
    const root = path.resolve(__dirname, "../../..");
    const guides = fs.readdirSync(path.join(root, "docs/guides")).map((f) => `docs/guides/${f}`);
    const lines = ["README.md", "docs/callbacks.md", ...guides].flatMap((file) =>
      [...fs.readFileSync(path.join(root, file), "utf8").matchAll(/```[a-z]*\n([\s\S]*?)```/g)]
        .flatMap((m) => present(m[1], "m[1]").split("\n"))
        .map((l) => l.replace(/\s+#.*$/, "").trim())
        .filter((l) => l.startsWith("sandpiper ")),
    );
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const commands = {
      listen: parseListen,
      trigger: parseTrigger,
      "events list": parseEventsList,
      "events get": parseEventsGet,
      "events resend": parseEventsResend,
      "logs tail": parseLogsTail,
      clock: parseClock,
      simulate: parseSimulate,
      "scenarios list": SCENARIOS_COMMANDS.list.parse,
      "scenarios add-standard": SCENARIOS_COMMANDS["add-standard"].parse,
      "scenarios add": SCENARIOS_COMMANDS.add.parse,
      "scenarios enable": SCENARIOS_COMMANDS.enable.parse,
      "scenarios disable": SCENARIOS_COMMANDS.disable.parse,
      "scenarios remove": SCENARIOS_COMMANDS.remove.parse,
    } as const;
    for (const line of lines) {
      const argv = line
        .replace(/<EVENT_ID>|<PAYMENT_ID>|<RULE_ID>/g, ID)
        .split(/\s+/)
        .slice(1);
      const target = route(argv);
      if ("help" in target) continue;
      expect(() => commands[target.name as keyof typeof commands](target.rest, env), line).not.toThrow();
    }
  });

  it("main answers --help with exit 0 and an unknown command with exit 2", async () => {
    expect(await main(["events", "get", "--help"])).toBe(0);
    expect(await main(["nope"])).toBe(2);
  });
});
