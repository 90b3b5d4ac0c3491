// /api/inngest - Inngest serve handler (docs/architecture.md "Layout"): Inngest calls the job functions here when
// it drives the background jobs (INNGEST_SIGNING_KEY for Inngest Cloud, or INNGEST_DEV for a dev server). Without
// either there is nothing to serve: 404 in the contract's envelope, logged as a structured line.
import { randomUUID } from "node:crypto";
import { serve } from "inngest/next";
import { apiError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/respond";
import { log } from "@/lib/log";
import { inngest } from "@/lib/notify/inngest-client";
import { inngestServes } from "@/lib/notify/mode";
import { inngestFunctions } from "@/lib/jobs/inngest";

export const dynamic = "force-dynamic";

const served = serve({ client: inngest, functions: [...inngestFunctions] });
type ServeHandler = (request: Request, context: unknown) => Promise<Response>;

/** The serve handler of `method` when Inngest is configured; otherwise 404 NOT_FOUND, logged. */
function guarded(method: "GET" | "POST" | "PUT"): ServeHandler {
  const handler = served[method] as unknown as ServeHandler;
  return async (request, context) => {
    if (inngestServes()) return handler(request, context);
    const requestId = randomUUID();
    log.warn({ requestId, method, path: "/api/inngest" }, "inngest endpoint called but Inngest is not configured (INNGEST_SIGNING_KEY or INNGEST_DEV)");
    return errorResponse(apiError("NOT_FOUND", "no Inngest functions are served here: Inngest is not configured on this service"), requestId);
  };
}

export const GET = guarded("GET");
export const POST = guarded("POST");
export const PUT = guarded("PUT");
