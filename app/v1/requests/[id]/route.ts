// GET /v1/requests/{id} - one logged API request by its requestId
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { getRequest } from "@/lib/application/request-log/read";
import { flushRequestLog } from "@/lib/application/request-log/writer";

export const GET = merchantApi(OPERATIONS.getRequest, async ({ db, merchant, params }) => {
  await flushRequestLog();
  return { status: 200, body: await getRequest(db, merchant.id, params.id) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
