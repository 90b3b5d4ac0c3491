import { systemNow, type RealInstant } from "@/lib/platform/clock";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import type { z } from "zod";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { formToObject } from "@/lib/application/console/forms";
import { currentActor } from "@/lib/application/console/session";
import { transaction, type Tx } from "@/lib/platform/db";
import { randomUUID } from "node:crypto";
import { ApiError } from "@/lib/contract/errors";
import { toApiError } from "@/lib/application/http/respond";

/**
 * What a console form shows after submitting: nothing yet, a success message (with optional values shown once,
 * such as a new API key or callback secret), or an error with per-field messages.
 */
export type ActionState =
  | { status: "idle" }
  | { status: "ok"; message: string; shownOnce?: Record<string, string>; details?: ActionDetail[]; at: number }
  | { status: "error"; message: string; fieldErrors?: Record<string, string>; at: number };

export const IDLE: ActionState = { status: "idle" };

/** One line of an action's answer that is right (`ok`) or needs fixing (e.g. a signature check's findings). */
export type ActionDetail = { ok: boolean; text: string };

type Result = { message: string; shownOnce?: Record<string, string>; details?: ActionDetail[] };

/**
 * Wraps a console mutation as a Server Action for `useActionState`(every mutation re-checks the session
 * and role server-side, validates with zod, and writes the audit row in the same transaction as the change).
 * Steps: the session's user is re-read from the database (none -> error); the form is parsed with `schema`
 * (errors per field, nothing changes); `run` executes in one transaction (it calls the lib function that checks
 * the role and writes the audit row); the console's pages are revalidated. ApiError messages are shown as they are
 * (they are written for users); anything else is logged and shown as a generic failure.
 * CSRF: Server Actions accept only POST and Next.js refuses one whose Origin host differs from the Host; a request
 * with no Origin at all is refused here unless it says `Sec-Fetch-Site: same-origin` ({@link sameOrigin}).
 */
export function consoleAction<S extends z.ZodType>(
  schema: S,
  run: (ctx: { actor: ConsoleActor; tx: Tx; input: z.output<S>; now: RealInstant }) => Promise<Result>,
) {
  return async (_prev: ActionState, form: FormData): Promise<ActionState> => {
    const at = systemNow().getTime();
    if (!sameOrigin(await headers())) {
      return {
        status: "error",
        message:
          "This change was refused: the request did not say it came from the console's own pages (no Origin header and no Sec-Fetch-Site: same-origin). Nothing was changed; reload the page and try again in a current browser.",
        at,
      };
    }
    const actor = await currentActor();
    if (!actor) return { status: "error", message: "Your session has ended. Sign in again.", at };
    // A form post that names the action without its bound state ($ACTION_ID_ instead of useActionState's
    // $ACTION_REF_) calls the action with the form as the first argument and nothing as the second.
    if (!(form instanceof FormData)) return { status: "error", message: "The form could not be read; nothing was changed. Reload the page and try again.", at };
    const parsed = schema.safeParse(formToObject(form));
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const name = String(issue.path[0] ?? "form");
        fieldErrors[name] ??= issue.message;
      }
      return { status: "error", message: "Check the highlighted fields; nothing was changed.", fieldErrors, at };
    }
    try {
      const result = await transaction((tx) => run({ actor, tx, input: parsed.data, now: systemNow() }));
      revalidatePath("/console", "layout");
      return { status: "ok", ...result, at };
    } catch (error) {
      return { status: "error", message: describeFailure(error), fieldErrors: fieldErrorOf(error), at };
    }
  };
}

/**
 * The message a console user sees for a failed action, from the one error mapper (`toApiError`, which also logs
 * what is not an ApiError): the mapped message as written for users, or for an internal error a generic one.
 */
function describeFailure(error: unknown): string {
  const mapped = toApiError(error, randomUUID());
  if (mapped.code === "SERVICE_UNAVAILABLE") return "The database is not answering; nothing was changed. Try again in a moment.";
  if (mapped.code === "INTERNAL_ERROR") return "Something went wrong; nothing was changed. Try again, and tell the service team if it keeps failing.";
  return capitalise(mapped.message);
}

/** The member a refused input names (lib/contract/errors.ts `fieldError`) -> `{ address: "enter one exact ..." }` for the form. */
function fieldErrorOf(error: unknown): Record<string, string> | undefined {
  if (!(error instanceof ApiError) || !error.field) return undefined;
  return { [error.field.name]: error.field.detail };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * True when a console mutation's request shows it came from the console's own pages (docs/architecture.md
 * "Console"): an Origin whose host is the request's Host (X-Forwarded-Host behind a proxy), or, without an Origin,
 * `Sec-Fetch-Site: same-origin`. A request with neither is refused.
 */
function sameOrigin(request: Headers): boolean {
  const origin = request.get("origin");
  if (origin === null) return request.get("sec-fetch-site") === "same-origin";
  const host = request.get("x-forwarded-host") ?? request.get("host");
  try {
    return host !== null && new URL(origin).host === host;
  } catch {
    return false;
  }
}
