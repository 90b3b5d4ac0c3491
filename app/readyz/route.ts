// GET /readyz - readiness (docs/operating.md "Health checks"): 200 when this process can serve, 503 naming the failing
// part (database, migrations, redis, jobs, or stopping after SIGTERM). Public, never in the request log.
import { readinessResponse } from "@/lib/application/health/readiness";

export const dynamic = "force-dynamic";

export function GET(): Promise<Response> {
  return readinessResponse();
}
