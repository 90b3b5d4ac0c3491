import { afterEach, describe, expect, it, vi } from "vitest";
import { readiness } from "@/lib/application/health/readiness";

// docs/operating.md "Health checks": /readyz never says ready while no job driver runs. This test process starts no
// driver (the service's instrumentation hook does), so readiness here is that of a process whose driver did not
// start; an Inngest event key without its signing key, the other way to run none, is refused at start
// (test/unit/config.test.ts, test/integration/start-failures.test.ts).

afterEach(() => vi.unstubAllEnvs());

describe("readiness and the job driver", () => {
  it("no embedded driver and no Inngest: not ready, naming the jobs; JOBS_DISABLED=1 (the operator's choice): ready", async () => {
    const none = await readiness();
    expect(none.checks.database.ok).toBe(true);
    expect(none.checks.jobs).toEqual({ ok: false, detail: "no job driver runs: the embedded driver did not start" });
    expect(none.ready).toBe(false);

    vi.stubEnv("JOBS_DISABLED", "1");
    const disabled = await readiness();
    expect(disabled.checks.jobs).toEqual({ ok: true, detail: "disabled (JOBS_DISABLED=1)" });
  });

  it("Inngest with both keys drives the jobs: ready as far as jobs go", async () => {
    vi.stubEnv("INNGEST_EVENT_KEY", "evt-key");
    vi.stubEnv("INNGEST_SIGNING_KEY", "signkey-test-0123");
    expect((await readiness()).checks.jobs).toEqual({ ok: true, detail: "driven by Inngest, not this process" });
  });
});
