// GET /v1/requests - the merchant's API requests, newest first (request log)
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { listRequests } from "@/lib/application/request-log/read";
import { flushRequestLog } from "@/lib/application/request-log/writer";

export const GET = merchantApi(OPERATIONS.listRequests, async ({ db, merchant, query }) => {
  await flushRequestLog();
  return { status: 200, body: await listRequests(db, merchant.id, query) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
