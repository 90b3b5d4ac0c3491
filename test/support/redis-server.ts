import { spawn, type ChildProcess } from "node:child_process";
import { Redis } from "ioredis";

/** A redis-server of a test's own (the machine's `redis-server`), on a free port, nothing saved to disk. */
export type OwnRedis = { url: string; child: ChildProcess; client: Redis; close(): Promise<void> };

/**
 * Starts `redis-server --port <free port> --save "" --appendonly no` and waits until it answers a PING. `client` is a
 * connection of the test's own to it (to read the keys the service writes); close() ends both.
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const { freePort } = await import("../../scripts/db.mjs");
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  client.on("error", () => undefined); // retried until the deadline below
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      if (client.status === "wait") await client.connect();
      if ((await client.ping()) === "PONG") break;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within 10 s: ${String(error)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
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
