// A separate worker process running the delivery job body (node --import tsx test/support/delivery-worker.mts '<json>').
// Options JSON: { merchantId, now (ISO), limit?, workerId? }. Prints "ready" once connected to the
// database, waits for a line on stdin ("go"), runs deliverDueCallbacks once and prints its summary as JSON.
import { createInterface } from "node:readline";
import { getDb } from "@/lib/platform/db";
import { deliverDueCallbacks } from "@/lib/domain/callbacks/deliver";

const opts = JSON.parse(process.argv[2]) as { merchantId: string; now: string; limit?: number; workerId?: string };
await getDb().$queryRaw`SELECT 1`;
console.log("ready");
await new Promise<void>((go) => createInterface({ input: process.stdin }).once("line", () => go()));
const summary = await deliverDueCallbacks({ merchantId: opts.merchantId, now: new Date(opts.now), limit: opts.limit, workerId: opts.workerId });
console.log(JSON.stringify({ claimed: summary.claimed, succeeded: summary.succeeded, eventIds: summary.outcomes.map((o) => o.eventId) }));
await getDb().$disconnect();
process.exit(0);
