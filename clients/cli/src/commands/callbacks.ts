// `sandpiper callbacks secret | rotate-secret | end-overlap [--listener]` (docs/callbacks.md "Rotating the secret"):
// rotating the callback secret, or the key's `sandpiper listen` secret, from the command line
// (GET /v1/sandbox/callback-secret or /v1/sandbox/listener-secret, POST .../rotate and .../end-overlap).
import { randomUUID } from "node:crypto";
import { COMMON_HELP, HELP, choiceOf, connection, parseCommandLine, usage, type Connection, type Env } from "../args";
import { SecretRotation, SecretState } from "../answers";
import { request } from "../client";

export const CALLBACKS_HELP = `Usage: sandpiper callbacks <secret | rotate-secret | end-overlap> [options]

  secret                where your callback secret stands: set or not, and a rotation's overlap (never the secret)
  rotate-secret         a new callback secret for the same address, printed once; the old one keeps signing
                        beside it for the overlap (X-Service-Signature with the old, webhook-signature with both)
  end-overlap           the old secret stops signing now

Options:
  --overlap <duration>  rotate-secret: how long the old secret keeps signing, e.g. 1h, 24h (default), 7d (the most)
                        or 0s (it stops at once)
  --listener            the same for this API key's sandpiper listen secret instead of the callback secret:
                        running listeners switch within about a second and print the new secret
  --json                print the API's answer as JSON
${COMMON_HELP}

The key needs the sandbox:simulate scope (with --listener: payments:read).`;

const SUBCOMMANDS = ["secret", "rotate-secret", "end-overlap"] as const;
export type CallbacksArgs = { connection: Connection; action: (typeof SUBCOMMANDS)[number]; overlap: string | null; listener: boolean; json: boolean };

/**
 * Parses the arguments after `callbacks`. Returns HELP for --help.
 * @throws UsageError (one line) for a missing or unknown subcommand, or --overlap with another subcommand.
 */
export function parseCallbacks(argv: string[], env: Env): CallbacksArgs | typeof HELP {
  const parsed = parseCommandLine("callbacks", argv, { overlap: { type: "string" }, listener: { type: "boolean" }, json: { type: "boolean" } }, 1);
  if (parsed === HELP) return HELP;
  const [given] = parsed.positionals;
  const action = choiceOf(SUBCOMMANDS, given);
  if (!action) throw usage("callbacks", `${given ? `unknown command "${given}"` : "a command is required"}: use secret, rotate-secret or end-overlap`);
  const overlap = typeof parsed.values.overlap === "string" ? parsed.values.overlap : null;
  if (overlap !== null && action !== "rotate-secret") throw usage("callbacks", "--overlap goes with rotate-secret only");
  return {
    connection: connection("callbacks", parsed.values, env),
    action,
    overlap,
    listener: parsed.values.listener === true,
    json: parsed.values.json === true,
  };
}

/**
 * `sandpiper callbacks`: reads the callback (or with --listener, the key's listener) secret's state, rotates it (a fresh Idempotency-Key; the new secret printed once)
 * or ends an overlap, and says what it did.
 * @returns 0
 * @throws ServiceError (400 VALIDATION_ERROR for an overlap the service does not take, 409 INVALID_STATE without an
 *   address, 403 without the scope)
 */
export async function runCallbacks(args: CallbacksArgs): Promise<number> {
  const base = args.listener ? "/v1/sandbox/listener-secret" : "/v1/sandbox/callback-secret";
  const which = args.listener ? "listener" : "callback";
  // What stands before a change, to say what the change did (an overlap dropped or ended, or none running).
  const before = args.action === "secret" ? null : await request(args.connection, "GET", base, SecretState);
  if (args.action === "rotate-secret") {
    const rotated = await request(args.connection, "POST", `${base}/rotate`, SecretRotation, {
      body: args.overlap === null ? {} : { overlap: args.overlap },
      idempotencyKey: `sandpiper-rotate-${randomUUID()}`,
    });
    if (args.json) console.log(JSON.stringify(rotated, null, 2));
    else {
      console.log(
        `New ${which} secret${args.listener ? " (running listeners switch to it and print it too" : " (shown once"}, also for Standard Webhooks libraries): ${rotated.secret}`,
      );
      if (before?.overlapEndsAt) console.log("An overlap was running: the secret before the one just replaced no longer signs (two secrets at most).");
      console.log(
        rotated.overlapEndsAt
          ? `Until ${rotated.overlapEndsAt} the replaced secret still signs X-Service-Signature and webhook-signature carries both. End it early: sandpiper callbacks end-overlap${args.listener ? " --listener" : ""}`
          : "The replaced secret no longer signs.",
      );
    }
    return 0;
  }
  const state =
    args.action === "secret"
      ? await request(args.connection, "GET", base, SecretState)
      : await request(args.connection, "POST", `${base}/end-overlap`, SecretState, { idempotencyKey: `sandpiper-end-overlap-${randomUUID()}` });
  if (args.json) console.log(JSON.stringify(state, null, 2));
  else if (state.configured === false) console.log("No callback address, so no secret: set one in the console (Callbacks).");
  else if (args.action === "end-overlap")
    console.log(before?.overlapEndsAt ? "Overlap ended: only the new secret signs from now on." : "No overlap was running: nothing changed.");
  else
    console.log(
      state.overlapEndsAt ? `A rotation's overlap runs until ${state.overlapEndsAt}: both secrets sign.` : "One secret signs: no overlap is running.",
    );
  return 0;
}
