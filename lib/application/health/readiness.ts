// Health and readiness of this process (docs/operating.md "Health checks"): /healthz answers while the process runs,
// /readyz when it can serve (the database answers and is migrated, the embedded job driver keeps its intervals) and is
// not stopping; degraded, still 200, while Redis (the shared rate limits, whose loss the API rides out) does not answer.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/platform/config";
import { systemNow } from "@/lib/platform/clock";
import pg from "pg";
import { getPool } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { jsonResponse } from "@/lib/application/http/respond";
import { sharedRedis } from "@/lib/platform/rate-limits/store";
import { jobStates } from "@/lib/application/jobs/driver";
import { log } from "@/lib/platform/log";
import { inngestConfigured, inngestServes } from "@/lib/domain/notify/mode";
import { processState } from "@/lib/platform/process-state";

/** How long one readiness check may take before it counts as failed, in milliseconds. */
export const CHECK_TIMEOUT_MS = 2_000;
/** A polling job is late when its last run ended more than twice its interval plus this many milliseconds ago. */
export const JOB_GRACE_MS = 10_000;

/** One part's result: ok, or not with what is wrong in words. */
export type Check = { ok: boolean; detail: string };
/** The parts of a readiness answer. */
export type Part = "process" | "database" | "migrations" | "redis" | "jobs";
/**
 * The parts whose failure this process rides out (docs/operating.md "Health checks"): without Redis the rate limits
 * are counted in this process's memory, so the instance still serves; /readyz answers 200 "degraded" naming them.
 */
export const RIDDEN_OUT: readonly Part[] = ["redis"];
/**
 * The readiness of this process: `ready` when every part it cannot serve without is ok; `degraded` the failing parts
 * it rides out ({@link RIDDEN_OUT}); `checks` by part (database, migrations, redis, jobs, process).
 */
export type Readiness = { ready: boolean; degraded: Part[]; checks: Record<Part, Check> };

const ok = (detail: string): Check => ({ ok: true, detail });
const failed = (detail: string): Check => ({ ok: false, detail });

/** `promise`, or a rejection naming `what` after CHECK_TIMEOUT_MS. */
function withinTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let committed: string[] | undefined;
/** The committed migrations (folder names under prisma/migrations, read once from the service's folder, its working directory). */
function committedMigrations(): string[] {
  committed ??= fs
    .readdirSync(path.join(process.cwd(), "prisma", "migrations"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  return committed;
}

const APPLIED_MIGRATIONS = "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL";

/** The probe's own connection between checks (PostgreSQL only), when the last check on it succeeded. */
let probeClient: pg.Client | null = null;

/**
 * The applied migrations' names, asked on a connection of the probe's own, never one of the pool's: a connection that
 * went silent (a network partition; TCP retries it for minutes) is not asked twice, so the first check after the
 * database answers again opens a fresh connection and is ready at once (docs/operating.md "Health checks"). The
 * connection is kept for the next check while it answers, and destroyed on any failure. The embedded database serves
 * one session: its check runs on the pool.
 */
async function appliedMigrations(): Promise<string[]> {
  const { DATABASE_URL: connectionString, SANDPIPER_EMBEDDED: embedded } = config();
  if (embedded || !connectionString) {
    const { rows } = await withinTimeout(getPool().query<{ migration_name: string }>(APPLIED_MIGRATIONS), "the database");
    return rows.map((r) => r.migration_name);
  }
  let client = probeClient;
  probeClient = null; // a check at the same time opens its own
  try {
    if (!client) {
      const fresh = new pg.Client({ connectionString, connectionTimeoutMillis: CHECK_TIMEOUT_MS });
      fresh.on("error", () => undefined); // a lost connection fails its query; the client is dropped below
      client = fresh;
      await withinTimeout(fresh.connect(), "the database");
    }
    const { rows } = await withinTimeout(client.query<{ migration_name: string }>(APPLIED_MIGRATIONS), "the database");
    if (probeClient) void client.end().catch(() => undefined);
    else probeClient = client;
    return rows.map((r) => r.migration_name);
  } catch (error) {
    const failedClient = client as (pg.Client & { connection?: { stream?: { destroy(): void } } }) | null;
    failedClient?.connection?.stream?.destroy();
    void failedClient?.end().catch(() => undefined);
    throw error;
  }
}

/** The database answers and has applied every committed migration: one query of Prisma's `_prisma_migrations` ({@link appliedMigrations}). */
async function checkDatabase(): Promise<Pick<Readiness["checks"], "database" | "migrations">> {
  let applied: Set<string>;
  try {
    applied = new Set(await appliedMigrations());
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { database: failed(`no answer: ${message.slice(0, 200)}`), migrations: failed("unknown while the database does not answer") };
  }
  let pending: string[];
  try {
    pending = committedMigrations().filter((name) => !applied.has(name));
  } catch (error) {
    return { database: ok("answers"), migrations: failed(`prisma/migrations not readable in ${process.cwd()}: ${String(error).slice(0, 200)}`) };
  }
  return {
    database: ok("answers"),
    migrations: pending.length === 0 ? ok(`${applied.size} applied`) : failed(`${pending.length} not applied (${pending.join(", ")}): run npm run db:migrate`),
  };
}

/** Redis answers a PING when REDIS_URL is set. */
async function checkRedis(): Promise<Check> {
  const redis = sharedRedis();
  if (!redis) return ok("not configured");
  try {
    await withinTimeout(redis.ping(), "redis");
    return ok("answers");
  } catch (error) {
    return failed(`no answer: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`);
  }
}

/**
 * A job driver runs: every polling job of the embedded driver ran within twice its interval plus JOB_GRACE_MS, or
 * Inngest drives the jobs and may call `/api/inngest`, or the operator switched this process's jobs off
 * (JOBS_DISABLED=1). Anything else (an embedded driver that did not start, Inngest that cannot call in) is not ready.
 */
function checkJobs(now: Date): Check {
  const states = jobStates();
  if (!states) {
    if (config().JOBS_DISABLED) return ok("disabled (JOBS_DISABLED=1)");
    if (!inngestConfigured()) return failed("no job driver runs: the embedded driver did not start");
    return inngestServes() ? ok("driven by Inngest, not this process") : failed("Inngest cannot call /api/inngest (INNGEST_SIGNING_KEY unset): no job runs");
  }
  const late = states.filter((s) => now.getTime() - s.lastRunAt.getTime() > 2 * s.intervalMs + JOB_GRACE_MS);
  if (late.length === 0) return ok(`${states.length} jobs on time`);
  return failed(
    late.map((s) => `${s.id} last ran ${Math.round((now.getTime() - s.lastRunAt.getTime()) / 1000)} s ago (every ${s.intervalMs / 1000} s)`).join("; "),
  );
}

/**
 * Whether this process can serve (docs/operating.md "Health checks"): the database answers within
 * CHECK_TIMEOUT_MS and every committed migration is applied, each embedded job ran within twice its interval plus
 * JOB_GRACE_MS, and the process is not stopping (SIGTERM). Redis, when configured, answers a PING or the answer is
 * degraded (not unready): its loss is ridden out. One database query and, with Redis, one PING; the checks run at once.
 */
export async function readiness(): Promise<Readiness> {
  const stopping = processState().shuttingDown === true;
  const [db, redis] = await Promise.all([checkDatabase(), checkRedis()]);
  const checks: Readiness["checks"] = {
    process: stopping ? failed("stopping (SIGTERM): finishing the requests under way") : ok("serving"),
    ...db,
    redis,
    jobs: checkJobs(systemNow()),
  };
  const failing = (Object.keys(checks) as Part[]).filter((part) => !checks[part].ok);
  return { ready: failing.every((part) => RIDDEN_OUT.includes(part)), degraded: failing.filter((part) => RIDDEN_OUT.includes(part)), checks };
}

/** One log line when this process's readiness changes (ready, degraded, not ready and why), never one per probe. */
function logChange({ ready, degraded, checks }: Readiness): void {
  const state = !ready ? "not ready" : degraded.length > 0 ? "degraded" : "ready";
  const failing = Object.fromEntries(Object.entries(checks).filter(([, check]) => !check.ok));
  const key = `${state} ${Object.keys(failing).join(",")}`;
  if (processState().readiness === key) return;
  const first = processState().readiness === undefined;
  processState().readiness = key;
  if (state === "ready") {
    if (!first) log.info("readiness: ready");
  } else log.warn({ failing }, `readiness: ${state} (${Object.keys(failing).join(", ")})`);
}

/**
 * The answer of `GET /healthz`: 200 `{ "status": "ok" }` while the process runs (no database call), never cached.
 */
export function healthResponse(): Response {
  return jsonResponse(200, { status: "ok" }, { "Cache-Control": "no-store" });
}

/**
 * The answer of `GET /readyz`: 200 `{ "status": "ready", "checks": { <part>: { ok, detail } } }` when
 * {@link readiness} is ready with every part ok; 200 `{ "status": "degraded", "degraded": ["redis"], "checks": ... }`
 * when it is ready without a part it rides out; else 503 in the contract's error envelope (docs/api.md "Errors":
 * SERVICE_UNAVAILABLE, its message naming each failing part, a request id, Retry-After 5 s) with the same `checks`
 * beside it. Never cached. A change of state is logged once ({@link logChange}).
 */
export async function readinessResponse(): Promise<Response> {
  const state = await readiness();
  logChange(state);
  const { ready, degraded, checks } = state;
  if (ready && degraded.length > 0) return jsonResponse(200, { status: "degraded", degraded, checks }, { "Cache-Control": "no-store" });
  if (ready) return jsonResponse(200, { status: "ready", checks }, { "Cache-Control": "no-store" });
  const failing = Object.entries(checks)
    .filter(([, check]) => !check.ok)
    .map(([part, check]) => `${part}: ${check.detail}`);
  const requestId = randomUUID();
  const error = apiError("SERVICE_UNAVAILABLE", `not ready: ${failing.join("; ")}`, { "Retry-After": "5" });
  return jsonResponse(
    error.status,
    { error: { code: error.code, message: error.message, requestId }, checks },
    { ...error.headers, "X-Request-Id": requestId, "Cache-Control": "no-store" },
  );
}
