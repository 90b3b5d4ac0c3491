import { afterEach, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../support/env";
import { startService, stopService } from "../support/global-setup";
import { TcpProxy } from "../support/tcp-proxy";
import { waitUntil } from "../../scripts/harness/wait";

// docs/operating.md "Health checks": /healthz answers while the process runs, without the database; /readyz answers
// 200 when the database answers and is migrated (and the job driver keeps its intervals), 200 "degraded" naming redis
// while a configured Redis does not answer (the API rides that out), 503 naming the failing part otherwise, and 200
// again once the database is back, without a restart; after SIGTERM it answers 503 first. Neither is logged per
// request. The service reaches PostgreSQL through a TCP proxy that a test
// cuts (what a database restart looks like to it).

const target = { host: new URL(TEST_DATABASE_URL).hostname, port: Number(new URL(TEST_DATABASE_URL).port || 5432) };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

type Answer = {
  status: number;
  body: {
    status?: string;
    degraded?: string[];
    checks?: Record<string, { ok: boolean; detail: string }>;
    error?: { code: string; message: string; requestId: string };
  };
  headers: Headers;
};
async function get(base: string, path: string): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

describe("/healthz and /readyz", () => {
  it("ready with the database; 503 naming the database while it is down, /healthz still 200; ready again after, without a restart; never logged", async () => {
    const proxy = await TcpProxy.start(target);
    cleanup.push(() => proxy.close());
    const svc = await startService({ DATABASE_URL: proxy.urlFor(TEST_DATABASE_URL), LOG_LEVEL: "info", DB_POOL_MAX: "2" }, { capture: true });
    cleanup.push(() => stopService(svc.child));

    expect(await get(svc.url, "/healthz")).toMatchObject({ status: 200, body: { status: "ok" } });
    const ready = await get(svc.url, "/readyz");
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    expect(ready.body).toMatchObject({
      status: "ready",
      checks: {
        process: { ok: true },
        database: { ok: true, detail: "answers" },
        migrations: { ok: true, detail: expect.stringMatching(/^\d+ applied$/) },
        redis: { ok: true, detail: "not configured" },
        jobs: { ok: true, detail: expect.stringMatching(/^\d+ jobs on time$/) },
      },
    });
    expect(ready.headers.get("cache-control")).toBe("no-store");

    proxy.cut();
    const down = await get(svc.url, "/readyz");
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect(down.body.error).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.stringMatching(/^not ready: database: no answer/) });
    expect(down.body.error!.requestId).toBe(down.headers.get("x-request-id"));
    expect(down.body.checks).toMatchObject({ database: { ok: false }, migrations: { ok: false }, process: { ok: true } });
    expect(await get(svc.url, "/healthz"), "alive without the database").toMatchObject({ status: 200 });

    proxy.restore();
    let again = await get(svc.url, "/readyz");
    await waitUntil(async () => (again = await get(svc.url, "/readyz")).status === 200, {
      what: "/readyz 200 again",
      timeoutMs: 15_000,
      intervalMs: 250,
    }).catch(
      () => undefined, // the answer is shown below
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(svc.child.exitCode, "never restarted").toBeNull();
    expect(
      svc.output.filter((line) => /healthz|readyz/.test(line)),
      "no log line per probe",
    ).toEqual([]);
  }, 120_000);

  it("200 degraded naming redis while REDIS_URL names a Redis that does not answer; the API keeps answering", async () => {
    const { freePort } = await import("../../scripts/db.mjs");
    const svc = await startService({ DATABASE_URL: TEST_DATABASE_URL, REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    cleanup.push(() => stopService(svc.child));
    const degraded = await get(svc.url, "/readyz");
    expect(degraded.status, "a dependency the API rides out does not take the instance out of the load balancer").toBe(200);
    expect(degraded.body).toMatchObject({
      status: "degraded",
      degraded: ["redis"],
      checks: { database: { ok: true }, redis: { ok: false, detail: expect.stringMatching(/^no answer/) }, jobs: { ok: true } },
    });
    expect(degraded.headers.get("cache-control")).toBe("no-store");
    expect((await fetch(`${svc.url}/v1/openapi.json`)).status).toBe(200);
  }, 60_000);

  it("after SIGTERM /readyz answers 503 (stopping) while the service still serves for SHUTDOWN_DELAY_MS; /healthz stays 200", async () => {
    const svc = await startService({ DATABASE_URL: TEST_DATABASE_URL, SHUTDOWN_DELAY_MS: "3000" });
    cleanup.push(() => stopService(svc.child));
    expect((await get(svc.url, "/readyz")).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => svc.child.once("exit", (code) => resolve(code)));
    svc.child.kill("SIGTERM");
    const stopping = await waitUntil(
      async () => {
        const res = await get(svc.url, "/readyz");
        return res.status === 503 && res;
      },
      { what: "/readyz 503 after SIGTERM" },
    );
    expect(stopping.status).toBe(503);
    expect(stopping.body.error!.message).toMatch(/process: stopping \(SIGTERM\)/);
    expect(stopping.headers.get("connection"), "kept-alive connections stay open until the listener closes").not.toBe("close");
    expect((await get(svc.url, "/healthz")).status).toBe(200);
    expect(await exited).toBe(0);
  }, 60_000);
});
