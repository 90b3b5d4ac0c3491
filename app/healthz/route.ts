// GET /healthz - liveness (docs/operating.md "Health checks"): 200 while the process runs; no database call, public,
// never in the request log.
import { healthResponse } from "@/lib/application/health/readiness";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return healthResponse();
}
