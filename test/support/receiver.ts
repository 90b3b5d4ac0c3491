import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { waitUntil } from "../../scripts/harness/wait";

/** One request a receiver got: headers as Node gives them (lower-case names) and the raw body bytes. */
export type Received = { method: string; path: string; headers: http.IncomingHttpHeaders; body: Buffer; at: number };
/** How the receiver answers one request; `hang` never answers. */
export type Reply = { status?: number; headers?: Record<string, string>; body?: string | Buffer; delayMs?: number; hang?: boolean };

/**
 * A merchant's callback receiver on loopback (real node:http server on a free port, or on `port`: a receiver that
 * comes back where it listened before). `reply` decides each answer from the request and its 0-based index; default
 * 200 `{"received":true}`.
 */
export async function startReceiver(reply: (r: Received, index: number) => Reply | Promise<Reply> = () => ({}), port = 0) {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const r: Received = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
      const index = received.push(r) - 1;
      const answer = await reply(r, index);
      if (answer.hang) return;
      if (answer.delayMs) await new Promise((ok) => setTimeout(ok, answer.delayMs));
      res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
      res.end(answer.body ?? '{"received":true}');
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(port, "127.0.0.1", ok));
  const listening = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${listening}/callbacks`,
    origin: `http://127.0.0.1:${listening}`,
    received,
    /** Waits until at least `count` requests have arrived (polling), or fails after timeoutMs. */
    async waitFor(count: number, timeoutMs = 15_000): Promise<Received[]> {
      await waitUntil(() => received.length >= count, { what: `${count} requests at the receiver (it got ${received.length})`, timeoutMs, intervalMs: 25 });
      return received;
    },
    async close(): Promise<void> {
      for (const s of sockets) s.destroy();
      await new Promise((ok) => server.close(ok));
    },
  };
}
