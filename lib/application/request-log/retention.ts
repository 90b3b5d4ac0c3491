// How long the request log keeps a request (docs/api.md "Request log"), and the job body that prunes it.
import { systemNow } from "@/lib/platform/clock";
import type { Db } from "@/lib/platform/db";
import { config } from "@/lib/platform/config";

/** Days a logged request is kept (REQUEST_LOG_RETENTION_DAYS, default 14). */
export function requestLogRetentionDays(): number {
  return config().REQUEST_LOG_RETENTION_DAYS;
}

/**
 * Deletes logged requests older than the retention period at `now`, at most 10,000 per call (the job runs again).
 * @returns `{ pruned }`, the rows deleted.
 */
export async function pruneRequestLog(db: Db, now: Date = systemNow()): Promise<{ pruned: number }> {
  const before = new Date(now.getTime() - requestLogRetentionDays() * 24 * 3600 * 1000);
  const pruned = await db.$executeRaw`
    DELETE FROM request_logs WHERE request_id IN (SELECT request_id FROM request_logs WHERE created_at < ${before} LIMIT 10000)`;
  return { pruned };
}
