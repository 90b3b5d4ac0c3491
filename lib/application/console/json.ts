import { randomUUID } from "node:crypto";
import { currentActor } from "@/lib/application/console/session";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { apiError } from "@/lib/contract/errors";
import { errorResponse, jsonResponse, toApiError } from "@/lib/application/http/respond";

/**
 * A console JSON read for SWR polling: needs a signed-in user (401 SESSION_REQUIRED otherwise); every failure goes
 * through the one error mapper (`toApiError`) and answers the error envelope with a requestId (404 NOT_FOUND for
 * another merchant's record); answers are never cached.
 */
export async function consoleJson(read: (actor: ConsoleActor) => Promise<unknown>): Promise<Response> {
  const requestId = randomUUID();
  try {
    const actor = await currentActor();
    if (!actor) throw apiError("SESSION_REQUIRED", "no console session (none was sent, or it has ended); sign in at /console/sign-in");
    return jsonResponse(200, await read(actor), { "Cache-Control": "no-store", "X-Request-Id": requestId });
  } catch (error) {
    return errorResponse(toApiError(error, requestId), requestId);
  }
}
