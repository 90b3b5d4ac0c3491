import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyCallback } from "@/clients/cli/src/verify";

/**
 * A callback receiver that follows the receiver rules (docs/guides/receive-and-verify-callbacks.md "Receiving callbacks"): it verifies the signature
 * over the raw body with the secret (constant-time, in verifyCallback), refuses a timestamp more than 300 s away,
 * checks that the header event id equals the body's id, stores each event id once and processes each payment
 * once (a duplicate is answered 2xx without processing it again). `secret` may be set after start (a listener
 * prints its secret once it runs). What it saw is kept for assertions.
 *
 * A receiver still being written fails: with `failFirst: n` it answers 500 to the first n valid copies of every
 * event before it stores it (`failWhen` limits that to the events it accepts). `port` starts it on a given port and
 * `state` hands it the state of an earlier one, so a test can stop a receiver and start it again at the same
 * address.
 */
export async function startRobustReceiver(
  opts: {
    secret?: string;
    failFirst?: number;
    failWhen?: (event: { id: string; data: { id: string; reference: string } }) => boolean;
    port?: number;
    state?: RobustReceiverState;
  } = {},
) {
  const state: RobustReceiverState = opts.state ?? {
    secret: opts.secret ?? "",
    /** event id -> times it arrived with a valid signature */
    events: new Map<string, number>(),
    /** payment id -> how many times its final state was processed (must stay 1) */
    processed: new Map<string, number>(),
    /** refused requests by reason (BAD_SIGNATURE, TIMESTAMP_OUT_OF_TOLERANCE, ...) */
    refused: new Map<string, number>(),
    /** event ids in the order their first valid copy arrived */
    order: [] as string[],
    /** event id -> valid copies answered 500 (failFirst) */
    failed: new Map<string, number>(),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const verified = verifyCallback(Buffer.concat(chunks), req.headers as Record<string, string>, state.secret);
      if (!verified.ok) {
        state.refused.set(verified.reason, (state.refused.get(verified.reason) ?? 0) + 1);
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ refused: verified.reason }));
        return;
      }
      const failedSoFar = state.failed.get(verified.eventId) ?? 0;
      if (
        opts.failFirst &&
        failedSoFar < opts.failFirst &&
        (!opts.failWhen || opts.failWhen(verified.event as { id: string; data: { id: string; reference: string } }))
      ) {
        state.failed.set(verified.eventId, failedSoFar + 1);
        res.writeHead(500, { "content-type": "application/json" }).end('{"error":"not yet"}');
        return;
      }
      const seen = state.events.get(verified.eventId) ?? 0;
      state.events.set(verified.eventId, seen + 1);
      if (seen === 0) {
        state.order.push(verified.eventId);
        const paymentId = String((verified.event.data as { id: string }).id);
        state.processed.set(paymentId, (state.processed.get(paymentId) ?? 0) + 1);
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((ok) => server.listen(opts.port ?? 0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  return {
    state,
    port,
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  };
}

/** What a robust receiver saw (see {@link startRobustReceiver}). */
export type RobustReceiverState = {
  secret: string;
  events: Map<string, number>;
  processed: Map<string, number>;
  refused: Map<string, number>;
  order: string[];
  failed: Map<string, number>;
};
