// /api/inngest - Inngest serve handler (docs/architecture.md "Layout"): Inngest calls the job functions here when
// it drives the background jobs (INNGEST_SIGNING_KEY for Inngest Cloud, or INNGEST_DEV for a dev server). Without
// either there is nothing to serve: 404 in the contract's envelope, logged as a structured line, and the Inngest SDK
// is never loaded (docs/architecture.md "Jobs").
import { randomUUID } from "node:crypto";
import { apiError } from "@/lib/contract/errors";
import { errorResponse } from "@/lib/application/http/respond";
import { log } from "@/lib/platform/log";
import { inngestServes } from "@/lib/domain/notify/mode";

export const dynamic = "force-dynamic";

type ServeHandler = (request: Request, context: unknown) => Promise<Response>;
type Served = Record<"GET" | "POST" | "PUT", ServeHandler>;
let served: Promise<Served> | undefined;

/** The SDK's serve handlers of the job functions, loaded and built on the first call Inngest makes. */
function servedHandlers(): Promise<Served> {
  served ??= Promise.all([import("inngest/next"), import("@/lib/domain/notify/inngest-client"), import("@/lib/application/jobs/inngest")]).then(
    ([{ serve }, { inngest }, { inngestFunctions }]) => serve({ client: inngest, functions: [...inngestFunctions] }) as unknown as Served,
  );
  return served;
}

/** The serve handler of `method` when Inngest is configured; otherwise 404 NOT_FOUND, logged. */
function guarded(method: "GET" | "POST" | "PUT"): ServeHandler {
  return async (request, context) => {
    if (inngestServes()) return (await servedHandlers())[method](request, context);
    const requestId = randomUUID();
    log.warn({ requestId, method, path: "/api/inngest" }, "inngest endpoint called but Inngest is not configured (INNGEST_SIGNING_KEY or INNGEST_DEV)");
    return errorResponse(apiError("NOT_FOUND", "no Inngest functions are served here: Inngest is not configured on this service"), requestId);
  };
}

export const GET = guarded("GET");
export const POST = guarded("POST");
export const PUT = guarded("PUT");
