import { randomUUID } from "node:crypto";
import { apiError } from "@/lib/contract/errors";
import { errorResponse } from "@/lib/application/http/respond";

const ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof ALL_METHODS)[number];
type Handler = (request: Request) => Promise<Response>;

/**
 * Handlers answering 405 METHOD_NOT_ALLOWED in the contract's envelope for the methods a route does not
 * serve (docs/api.md "Errors": 405 METHOD_NOT_ALLOWED with an `Allow` header). Spread into a route module's exports.
 */
export function methodsNotAllowed(allowed: Method[]): Record<Method, Handler> {
  const handler: Handler = async () => {
    const requestId = randomUUID();
    const response = errorResponse(apiError("METHOD_NOT_ALLOWED", `method not allowed; use ${allowed.join(" or ")}`), requestId);
    response.headers.set("Allow", allowed.join(", "));
    return response;
  };
  return Object.fromEntries(ALL_METHODS.filter((m) => !allowed.includes(m)).map((m) => [m, handler])) as Record<Method, Handler>;
}

/** Handler of every method on an unknown /v1 path: 404 NOT_FOUND in the contract's envelope. */
export async function unknownRoute(): Promise<Response> {
  const requestId = randomUUID();
  return errorResponse(apiError("NOT_FOUND", "no such endpoint; see /v1/openapi.json"), requestId);
}
