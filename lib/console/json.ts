import { ApiError } from "@/lib/errors";
import { currentActor } from "@/lib/console/session";
import type { ConsoleActor } from "@/lib/auth/actor";
import { toJson } from "@/lib/http/respond";

/**
 * A console JSON read for SWR polling: needs a signed-in user (401 otherwise); ApiErrors keep their status
 * (404 for another merchant's record); responses are never cached.
 */
export async function consoleJson(read: (actor: ConsoleActor) => Promise<unknown>): Promise<Response> {
  const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };
  const actor = await currentActor();
  if (!actor) return new Response(toJson({ error: { code: "UNAUTHENTICATED", message: "sign in to the console" } }), { status: 401, headers });
  try {
    return new Response(toJson(await read(actor)), { status: 200, headers });
  } catch (error) {
    if (error instanceof ApiError) return new Response(toJson({ error: { code: error.code, message: error.message } }), { status: error.status, headers });
    throw error;
  }
}
