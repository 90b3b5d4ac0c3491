// `sandpiper callbacks secret | rotate-secret | end-overlap` (docs/callbacks.md "Rotating the secret"): the callback
// secret's rotation from the command line (GET /v1/sandbox/callback-secret, POST .../rotate and .../end-overlap).
import { randomUUID } from "node:crypto";
import { COMMON_HELP, HELP, connection, parseCommandLine, usage, type Connection, type Env } from "../args";
import { request } from "../client";

export const CALLBACKS_HELP = `Usage: sandpiper callbacks <secret | rotate-secret | end-overlap> [options]

  secret                where your callback secret stands: set or not, and a rotation's overlap (never the secret)
  rotate-secret         a new callback secret for the same address, printed once; the old one keeps signing
                        beside it for the overlap (X-Service-Signature with the old, webhook-signature with both)
  end-overlap           the old secret stops signing now

Options:
  --overlap <duration>  rotate-secret: how long the old secret keeps signing, e.g. 1h, 24h (default), 7d (the most)
                        or 0s (it stops at once)
  --json                print the API's answer as JSON
${COMMON_HELP}

The key needs the sandbox:simulate scope.`;

const SUBCOMMANDS = ["secret", "rotate-secret", "end-overlap"] as const;
export type CallbacksArgs = { connection: Connection; action: (typeof SUBCOMMANDS)[number]; overlap: string | null; json: boolean };

/**
 * Parses the arguments after `callbacks`. Returns HELP for --help.
 * @throws UsageError (one line) for a missing or unknown subcommand, or --overlap with another subcommand.
 */
export function parseCallbacks(argv: string[], env: Env): CallbacksArgs | typeof HELP {
  const parsed = parseCommandLine("callbacks", argv, { overlap: { type: "string" }, json: { type: "boolean" } }, 1);
  if (parsed === HELP) return HELP;
  const [action] = parsed.positionals;
  if (!SUBCOMMANDS.includes(action as CallbacksArgs["action"]))
    throw usage("callbacks", `${action ? `unknown command "${action}"` : "a command is required"}: use secret, rotate-secret or end-overlap`);
  const overlap = typeof parsed.values.overlap === "string" ? parsed.values.overlap : null;
  if (overlap !== null && action !== "rotate-secret") throw usage("callbacks", "--overlap goes with rotate-secret only");
  return { connection: connection("callbacks", parsed.values, env), action: action as CallbacksArgs["action"], overlap, json: parsed.values.json === true };
}

type State = { configured: boolean; overlapEndsAt: string | null };
type Rotation = { secret: string; overlapEndsAt: string | null };

/**
 * `sandpiper callbacks`: reads the secret's state, rotates it (a fresh Idempotency-Key; the new secret printed once)
 * or ends an overlap, and says what it did.
 * @returns 0
 * @throws ServiceError (400 VALIDATION_ERROR for an overlap the service does not take, 409 INVALID_STATE without an
 *   address, 403 without the scope)
 */
export async function runCallbacks(args: CallbacksArgs): Promise<number> {
  if (args.action === "rotate-secret") {
    const rotated = await request<Rotation>(args.connection, "POST", "/v1/sandbox/callback-secret/rotate", {
      body: args.overlap === null ? {} : { overlap: args.overlap },
      idempotencyKey: `sandpiper-rotate-${randomUUID()}`,
    });
    if (args.json) console.log(JSON.stringify(rotated, null, 2));
    else {
      console.log(`New callback secret (shown once, also for Standard Webhooks libraries): ${rotated.secret}`);
      console.log(
        rotated.overlapEndsAt
          ? `Until ${rotated.overlapEndsAt} the old secret still signs X-Service-Signature and webhook-signature carries both. End it early: sandpiper callbacks end-overlap`
          : "The old secret no longer signs.",
      );
    }
    return 0;
  }
  const state =
    args.action === "secret"
      ? await request<State>(args.connection, "GET", "/v1/sandbox/callback-secret")
      : await request<State>(args.connection, "POST", "/v1/sandbox/callback-secret/end-overlap", { idempotencyKey: `sandpiper-end-overlap-${randomUUID()}` });
  if (args.json) console.log(JSON.stringify(state, null, 2));
  else if (!state.configured) console.log("No callback address, so no secret: set one in the console (Callbacks).");
  else
    console.log(
      state.overlapEndsAt ? `A rotation's overlap runs until ${state.overlapEndsAt}: both secrets sign.` : "One secret signs: no overlap is running.",
    );
  return 0;
}
