// Callback delivery benchmark: the built service with its embedded driver, a local receiver on loopback.
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/callbacks.ts [--n 500] [--latency 300] [--concurrency 8] [--write]
//
// 1. Throughput: N payments are completed while the merchant has no callback address (NOT_CONFIGURED),
//    then the address is set and all N deliveries are requeued at once; deliveries per second = N / time
//    from the requeue to the last receipt (the embedded driver's poll picks them up, batches of 20 sent
//    concurrently).
// 2. End-to-end delay: with the address set, payments are completed over HTTP (POST complete, `concurrency`
//    at a time); delay = receipt at the receiver - moment the complete request was sent. p50 / p99.
// Every received callback is verified with verifyCallback. --write replaces the "## Callbacks" section of
// docs/benchmarks.md (other sections are kept).
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { startService } from "../scripts/harness/service";
import { benchDatabaseUrl, freshSeededDatabase, numberArg, percentile, writeBenchmarkSection } from "./support";
import { present } from "../scripts/harness/present";

const root = path.resolve(__dirname, "..");
const N = numberArg("n", 500);
const LATENCY_N = numberArg("latency", 300);
const CONCURRENCY = numberArg("concurrency", 8);
const DATABASE_URL = benchDatabaseUrl();
process.env.CALLBACK_ALLOW_LOOPBACK = "1";
process.env.LOG_LEVEL ??= "warn";

/** The receiver: records the first receipt time per event id and answers 200 after reading the body. */
async function startReceiver() {
  const firstReceipt = new Map<string, number>();
  const bodies: { body: Buffer; headers: http.IncomingHttpHeaders }[] = [];
  let total = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.timeOrigin + performance.now();
      const body = Buffer.concat(chunks);
      total++;
      const id = String(req.headers["x-service-event-id"]);
      if (!firstReceipt.has(id)) firstReceipt.set(id, at);
      bodies.push({ body, headers: req.headers });
      res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`, firstReceipt, bodies, total: () => total, close: () => server.close() };
}

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(present(items[next++], "items[next++]"));
    }),
  );
}

async function main() {
  const loadAtStart = Number(present(os.loadavg()[0], "os.loadavg()[0]").toFixed(1));
  const seeded = await freshSeededDatabase(DATABASE_URL);
  const { getDb } = await import("@/lib/platform/db");
  const { setCallbackUrl } = await import("@/lib/domain/callbacks/callback-config");
  const { requeueDeliveries } = await import("@/lib/domain/callbacks/deliveries");
  const { verifyCallback } = await import("@/clients/cli/src/verify");
  const db = getDb();

  const receiver = await startReceiver();
  // The built service with the default delivery settings (NODE_ENV=test: loopback receivers are refused under production).
  const service = await startService({ DATABASE_URL, CALLBACK_ALLOW_LOOPBACK: "1", RATE_LIMIT_PER_KEY: "1000000", RATE_LIMIT_PER_IP: "1000000" });
  const post = async (p: string, body: unknown) => {
    const res = await fetch(service.url + p, {
      method: "POST",
      headers: { authorization: `Bearer ${seeded.keys.full}`, "content-type": "application/json", "idempotency-key": `bench-${crypto.randomUUID()}` },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
    return json as { id: string };
  };
  const createPayment = () =>
    post("/v1/payments", { reference: `bench-${crypto.randomUUID()}`, amount: "100.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });

  // 1. Throughput.
  await pool(
    Array.from({ length: N }, (_, i) => i),
    CONCURRENCY,
    async () => {
      const p = await createPayment();
      await post(`/v1/sandbox/payments/${p.id}/complete`, { outcome: "SUCCEEDED" });
    },
  );
  const { secret } = await setCallbackUrl(db, { merchantId: seeded.merchantId, url: receiver.url });
  const requeuedAt = performance.timeOrigin + performance.now();
  const requeued = await requeueDeliveries(db, { merchantId: seeded.merchantId });
  if (requeued !== N) throw new Error(`requeued ${requeued} of ${N}`);
  while (receiver.firstReceipt.size < N) await new Promise((r) => setTimeout(r, 20));
  const lastReceipt = Math.max(...receiver.firstReceipt.values());
  const drainSeconds = (lastReceipt - requeuedAt) / 1000;
  const perSecond = N / drainSeconds;

  // 2. End-to-end delay from completion to receipt.
  const pending: string[] = [];
  for (let i = 0; i < LATENCY_N; i++) pending.push((await createPayment()).id);
  const sentAt = new Map<string, number>();
  const answeredAt = new Map<string, number>();
  await pool(pending, CONCURRENCY, async (id) => {
    sentAt.set(id, performance.timeOrigin + performance.now());
    await post(`/v1/sandbox/payments/${id}/complete`, { outcome: "SUCCEEDED" });
    answeredAt.set(id, performance.timeOrigin + performance.now());
  });
  const events = await db.event.findMany({ where: { paymentId: { in: pending } }, select: { id: true, paymentId: true } });
  while (events.some((e) => !receiver.firstReceipt.has(e.id))) await new Promise((r) => setTimeout(r, 20));
  const delays = events.map((e) => receiver.firstReceipt.get(e.id)! - sentAt.get(e.paymentId!)!).sort((a, b) => a - b);
  const requestMs = pending.map((id) => answeredAt.get(id)! - sentAt.get(id)!).sort((a, b) => a - b);

  const verified = receiver.bodies.filter((b) => verifyCallback(b.body, b.headers, secret).ok).length;
  const duplicates = receiver.total() - receiver.firstReceipt.size;
  service.child.kill("SIGTERM");
  receiver.close();
  await db.$disconnect();

  const cpus = os.cpus();
  const figures = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${cpus.length} x ${cpus[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    loadAverage: loadAtStart,
    node: process.version,
    throughput: { deliveries: N, seconds: Number(drainSeconds.toFixed(2)), perSecond: Math.round(perSecond) },
    latency: {
      callbacks: LATENCY_N,
      concurrency: CONCURRENCY,
      p50Ms: Math.round(percentile(delays, 50)),
      p99Ms: Math.round(percentile(delays, 99)),
      maxMs: Math.round(present(delays[delays.length - 1], "delays[delays.length - 1]")),
      requestP50Ms: Math.round(percentile(requestMs, 50)),
      requestP99Ms: Math.round(percentile(requestMs, 99)),
    },
    verified: `${verified}/${receiver.total()}`,
    duplicates,
  };
  console.log(JSON.stringify(figures, null, 2));
  if (process.argv.includes("--write")) writeSection(figures);
}

function writeSection(f: {
  date: string;
  machine: string;
  loadAverage: number;
  node: string;
  throughput: { deliveries: number; seconds: number; perSecond: number };
  latency: { callbacks: number; concurrency: number; p50Ms: number; p99Ms: number; maxMs: number; requestP50Ms: number; requestP99Ms: number };
  verified: string;
  duplicates: number;
}) {
  const section = `## Callbacks

Command: \`node scripts/build.mjs && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/callbacks.ts --n ${f.throughput.deliveries} --latency ${f.latency.callbacks} --concurrency ${f.latency.concurrency} --write\`

The built service (\`server.mjs\`, embedded job driver with its defaults: delivery poll every 1 s, batches of 20
sent concurrently, new events announced to the driver right after commit) on local PostgreSQL, and a
node:http receiver on loopback answering 200 at once. Machine: ${f.machine}, shared with other work while
measured (1-minute load average ${f.loadAverage} at the start); Node ${f.node}; ${f.date}.

| figure | value |
|---|---|
| deliveries per second (${f.throughput.deliveries} requeued deliveries drained) | ${f.throughput.perSecond} /s (${f.throughput.seconds} s from requeue to last receipt) |
| completion to receipt, p50 (${f.latency.callbacks} callbacks, ${f.latency.concurrency} completions in flight) | ${f.latency.p50Ms} ms |
| completion to receipt, p99 | ${f.latency.p99Ms} ms (max ${f.latency.maxMs} ms) |
| of which the completion request itself (sent to answered), p50 / p99 | ${f.latency.requestP50Ms} ms / ${f.latency.requestP99Ms} ms |
| callbacks verified with \`verifyCallback\` | ${f.verified} |
| duplicate deliveries | ${f.duplicates} |

Throughput: the payments were completed while the merchant had no callback address (deliveries
NOT_CONFIGURED), then the address was set and all deliveries requeued at once; the figure is the driver's
drain rate (the time includes up to one poll interval, 1 s, before the service's driver sees a requeue made
by another process). Delay: measured from the moment \`POST /v1/sandbox/payments/{id}/complete\` was sent to the
receipt of its \`payment.succeeded\` at the receiver; it includes the completion request itself.
`;
  const file = writeBenchmarkSection(section);
  console.log(`wrote the Callbacks section of ${path.relative(root, file)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
