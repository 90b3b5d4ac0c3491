import { spawn, type ChildProcess } from "node:child_process";
import { Redis } from "ioredis";
import { waitUntil } from "./wait";

/** A redis-server of a test's own (the machine's `redis-server`), on a free port, nothing saved to disk. */
export type OwnRedis = { url: string; child: ChildProcess; client: Redis; close(): Promise<void> };

/**
 * Starts `redis-server --port <free port> --save "" --appendonly no` and waits until it answers a PING. `client` is a
 * connection of the test's own to it (to read the keys the service writes); close() ends both.
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const { freePort } = await import("../db.mjs");
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  client.on("error", () => undefined); // retried until the deadline below
  let lastError: unknown;
  await waitUntil(
    async () => {
      try {
        if (client.status === "wait") await client.connect();
        return (await client.ping()) === "PONG";
      } catch (error) {
        lastError = error;
        return false;
      }
    },
    { what: `redis-server on port ${port} to answer`, timeoutMs: 10_000 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${String(lastError)}`, { cause: error });
  });
  return {
    url,
    child,
    client,
    async close() {
      client.disconnect();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGCONT");
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** One create of a load run: its status, latency (ms) and whether Redis was stopped at any time while it ran. */
export type CreateSample = { status: number; ms: number; stopped: boolean };

/**
 * Creates under load across a hang of `redis` (docs/operating.md "Scaling"): `clients` clients each create one after
 * another with `pauseMs` between (`create` resolves with the HTTP status); after `warmMs` the Redis process is
 * stopped (SIGSTOP) for `stoppedMs`, `whileStopped` runs one second into the stop, then it is continued (SIGCONT)
 * and the load goes on for `afterMs`. Used by test/integration/redis-outage.test.ts and bench/redis-hang.ts.
 * @returns every create's sample, in the order they ended
 */
export async function createsAcrossRedisHang(opts: {
  redis: OwnRedis;
  create: () => Promise<number>;
  clients: number;
  pauseMs: number;
  warmMs: number;
  stoppedMs: number;
  afterMs: number;
  whileStopped?: () => Promise<void>;
}): Promise<CreateSample[]> {
  // The load's phases (warm, stopped, after) are windows of time, not states to wait for.
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let stopped = false;
  let running = true;
  const samples: CreateSample[] = [];
  const clients = Array.from({ length: opts.clients }, async () => {
    while (running) {
      const wasStopped = stopped;
      const started = performance.now();
      const status = await opts.create();
      samples.push({ status, ms: performance.now() - started, stopped: wasStopped || stopped });
      // waits on purpose: the client's pause between creates (pacing)
      await sleep(opts.pauseMs);
    }
  });
  try {
    // waits on purpose: the load's warm phase
    await sleep(opts.warmMs);
    opts.redis.child.kill("SIGSTOP");
    stopped = true;
    // waits on purpose: one second into the stop
    await sleep(1_000);
    await opts.whileStopped?.();
    // waits on purpose: the rest of the stop
    await sleep(Math.max(0, opts.stoppedMs - 1_000));
  } finally {
    opts.redis.child.kill("SIGCONT");
    stopped = false;
  }
  // waits on purpose: the load after the stop
  await sleep(opts.afterMs);
  running = false;
  await Promise.all(clients);
  return samples;
}
