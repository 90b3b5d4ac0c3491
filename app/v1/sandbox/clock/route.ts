// GET /v1/sandbox/clock - the merchant's sandbox clock (docs/api.md "Sandbox clock")
import { methodsNotAllowed } from "@/lib/http/fallback";
import { merchantApi } from "@/lib/http/pipeline";
import { OPERATIONS } from "@/lib/openapi/operations";
import { getSandboxClock } from "@/lib/sandbox-clock/clock";

export const GET = merchantApi(OPERATIONS.getSandboxClock, async ({ db, merchant }) => {
  return { status: 200, body: await getSandboxClock(db, merchant.id) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
