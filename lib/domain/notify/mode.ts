// Which driver runs the background jobs (docs/architecture.md "Stack": Inngest in production, an embedded driver
// otherwise). Exactly one driver runs.
import { config } from "@/lib/platform/config";

/** True when Inngest drives the jobs: INNGEST_EVENT_KEY or INNGEST_DEV is set. */
export function inngestConfigured(): boolean {
  return Boolean(config().INNGEST_EVENT_KEY || config().INNGEST_DEV);
}

/**
 * True when /api/inngest serves the functions: Inngest can authenticate its calls (INNGEST_SIGNING_KEY) or a local
 * dev server drives them (INNGEST_DEV). Otherwise the route answers 404 (docs/architecture.md "Jobs").
 */
export function inngestServes(): boolean {
  return Boolean(config().INNGEST_SIGNING_KEY || config().INNGEST_DEV);
}
