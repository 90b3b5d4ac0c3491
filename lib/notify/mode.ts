// Which driver runs the background jobs (docs/architecture.md "Stack": Inngest in production, an embedded driver
// otherwise). Exactly one driver runs.

/** True when Inngest drives the jobs: INNGEST_EVENT_KEY or INNGEST_DEV is set. */
export function inngestConfigured(): boolean {
  return Boolean(process.env.INNGEST_EVENT_KEY || process.env.INNGEST_DEV);
}
