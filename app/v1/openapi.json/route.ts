// GET /v1/openapi.json - the machine-readable contract (OpenAPI 3.1), public: no API key needed
import { randomUUID } from "node:crypto";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { jsonResponse } from "@/lib/application/http/respond";
import { openApiDocument } from "@/lib/application/openapi/document";

export const dynamic = "force-static";

export async function GET(): Promise<Response> {
  return jsonResponse(200, openApiDocument(), { "X-Request-Id": randomUUID(), "Cache-Control": "public, max-age=300" });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
