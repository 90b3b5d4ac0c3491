// GET /v1/sandbox/clock - the merchant's sandbox clock (docs/api.md "Sandbox clock")
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { getSandboxClock } from "@/lib/simulators/sandbox-clock/clock";

export const GET = merchantApi(OPERATIONS.getSandboxClock, async ({ db, merchant }) => {
  return { status: 200, body: await getSandboxClock(db, merchant.id) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
