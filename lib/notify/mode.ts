// Which driver runs the background jobs (docs/architecture.md "Stack": Inngest in production, an embedded driver
// otherwise). Exactly one driver runs.
import { config } from "@/lib/config";

/** True when Inngest drives the jobs: INNGEST_EVENT_KEY or INNGEST_DEV is set. */
export function inngestConfigured(): boolean {
  return Boolean(config().INNGEST_EVENT_KEY || config().INNGEST_DEV);
}
