// Listener forwarding benchmark: completion -> service -> `sandpiper listen` -> local receiver, side by side with
// the service's own delivery to a configured address (the reference path) in the same run.
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/listen.ts [--rate 20] [--seconds 20] [--write]
//
// The built service on local PostgreSQL; payments are created first, then completed at a steady `rate` per
// second for `seconds`. The merchant's callback address is receiver A (the service's delivery) and a listener
// process (bin/sandpiper.mjs) forwards to receiver B. Delay = receipt - the moment the completion request was
// sent, per event, at each receiver. Every receipt is verified (A with the callback secret, B with the
// listener secret the listener printed). A second listener forwards to receiver C, which answers 500 to the
// first two requests of every event (a receiver still being written): its delay is to the first 2xx, through
// the listener's retries. --write replaces the "## Listener forwarding" section of docs/benchmarks.md.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { startService } from "../scripts/harness/service";
import { benchDatabaseUrl, freshSeededDatabase, numberArg, percentile, writeBenchmarkSection } from "./support";
import { assertPresent, present } from "../scripts/harness/present";

const root = path.resolve(__dirname, "..");
const RATE = numberArg("rate", 20);
const SECONDS = numberArg("seconds", 20);
const DATABASE_URL = benchDatabaseUrl();
process.env.CALLBACK_ALLOW_LOOPBACK = "1";
process.env.LOG_LEVEL ??= "warn";

const now = () => performance.timeOrigin + performance.now();

/**
 * A receiver that keeps the time of the first 2xx it gave each event id and every request for verification;
 * with `failFirst` it answers 500 to the first `failFirst` requests of each event.
 */
async function receiver(failFirst = 0) {
  const first = new Map<string, number>();
  const seen = new Map<string, number>();
  const requests: { body: Buffer; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = now();
      const id = String(req.headers["x-service-event-id"]);
      requests.push({ body: Buffer.concat(chunks), headers: req.headers });
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      if (n <= failFirst) return void res.writeHead(500, { "content-type": "application/json" }).end('{"error":"not yet"}');
      if (!first.has(id)) first.set(id, at);
      res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, first, requests, close: () => server.close() };
}

async function main() {
  const loadAtStart = Math.round(present(os.loadavg()[0], "the load average") * 10) / 10;
  const seeded = await freshSeededDatabase(DATABASE_URL);
  const { getDb } = await import("@/lib/platform/db");
  const { setCallbackUrl } = await import("@/lib/domain/callbacks/callback-config");
  const { verifyCallback } = await import("@/clients/cli/src/verify");
  const db = getDb();

  const direct = await receiver();
  const forwarded = await receiver();
  const failing = await receiver(2);
  const { secret: callbackSecret } = await setCallbackUrl(db, { merchantId: seeded.merchantId, url: direct.url });
  const service = await startService({ DATABASE_URL, CALLBACK_ALLOW_LOOPBACK: "1", RATE_LIMIT_PER_KEY: "1000000", RATE_LIMIT_PER_IP: "1000000" });
  const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-listen-")), "state.json");
  const children: { kill: (signal?: NodeJS.Signals) => boolean }[] = [service.child];
  process.once("exit", () => children.forEach((c) => c.kill("SIGTERM")));
  const startListener = async (forwardTo: string, file: string) => {
    const child = spawn(
      process.execPath,
      [
        path.join(root, "bin", "sandpiper.mjs"),
        "listen",
        "--forward-to",
        forwardTo,
        "--api-url",
        service.url,
        "--api-key",
        seeded.keys.full,
        "--state-file",
        file,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(child);
    let output = "";
    child.stdout!.setEncoding("utf8").on("data", (t: string) => (output += t));
    while (!/Ready: following/.test(output)) await new Promise((r) => setTimeout(r, 50));
    return { child, secret: /Listener signing secret: (whsec_\S+)/.exec(output)![1] };
  };
  const { child: listener, secret: listenerSecret } = await startListener(forwarded.url, stateFile);
  assertPresent(listenerSecret, "listenerSecret");
  const { child: retryingListener } = await startListener(failing.url, `${stateFile}.failing`);

  const post = async (p: string, body: unknown) => {
    const res = await fetch(service.url + p, {
      method: "POST",
      headers: { authorization: `Bearer ${seeded.keys.full}`, "content-type": "application/json", "idempotency-key": `bench-${crypto.randomUUID()}` },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const total = RATE * SECONDS;
  const ids: string[] = [];
  for (let i = 0; i < total; i += 10) {
    const batch = Array.from({ length: Math.min(10, total - i) }, () =>
      post("/v1/payments", { reference: `bench-${crypto.randomUUID()}`, amount: "100.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" }),
    );
    ids.push(...(await Promise.all(batch)).map((p) => p.id));
  }

  // Completions at a steady rate: completion i is sent at start + i / RATE seconds, whatever the earlier ones do.
  const sentAt = new Map<string, number>();
  const start = now() + 200;
  await Promise.all(
    ids.map(async (id, i) => {
      const wait = start + (i * 1000) / RATE - now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sentAt.set(id, now());
      await post(`/v1/sandbox/payments/${id}/complete`, { outcome: i % 4 === 0 ? "FAILED" : "SUCCEEDED" });
    }),
  );
  const achievedRate = total / ((Math.max(...sentAt.values()) - Math.min(...sentAt.values())) / 1000);
  const events = await db.event.findMany({ where: { paymentId: { in: ids } }, select: { id: true, paymentId: true } });
  const deadline = Date.now() + 60_000;
  while (events.some((e) => !direct.first.has(e.id) || !forwarded.first.has(e.id) || !failing.first.has(e.id)) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const delays = (r: typeof direct) =>
    events
      .filter((e) => r.first.has(e.id))
      .map((e) => r.first.get(e.id)! - sentAt.get(e.paymentId!)!)
      .sort((a, b) => a - b);
  const summary = (r: typeof direct, secret: string) => {
    const d = delays(r);
    return {
      received: `${r.first.size}/${events.length}`,
      p50Ms: Math.round(percentile(d, 50)),
      p99Ms: Math.round(percentile(d, 99)),
      maxMs: Math.round(present(d[d.length - 1], "d[d.length - 1]")),
      verified: `${r.requests.filter((q) => verifyCallback(q.body, q.headers, secret).ok).length}/${r.requests.length}`,
      duplicates: r.requests.length - r.first.size,
    };
  };
  const figures = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    loadAverage: loadAtStart,
    node: process.version,
    rate: RATE,
    achievedRate: Math.round(achievedRate * 10) / 10,
    completions: total,
    listener: summary(forwarded, listenerSecret),
    retried: summary(failing, listenerSecret),
    direct: summary(direct, callbackSecret),
  };
  listener.kill("SIGTERM");
  retryingListener.kill("SIGTERM");
  service.child.kill("SIGTERM");
  direct.close();
  forwarded.close();
  failing.close();
  await db.$disconnect();
  console.log(JSON.stringify(figures, null, 2));
  if (process.argv.includes("--write")) {
    const row = (name: string, s: ReturnType<typeof summary>, extra = "") =>
      `| ${name} | ${s.p50Ms} ms | ${s.p99Ms} ms | ${s.maxMs} ms | ${s.received} | ${s.verified} | ${s.duplicates}${extra} |`;
    const file = writeBenchmarkSection(`## Listener forwarding

Command: \`node scripts/build.mjs && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/listen.ts --rate ${RATE} --seconds ${SECONDS} --write\`

The built service (\`server.mjs\`, embedded job driver, defaults) on local PostgreSQL; ${total} payments completed at
${RATE} per second (achieved ${figures.achievedRate}/s) over HTTP. Each event goes two ways in the same run: the service's own
delivery to the merchant's configured address (receiver A, the reference path), and the event stream ->
a \`sandpiper listen\` process -> receiver B. Delay: from sending \`POST /v1/sandbox/payments/{id}/complete\` to
the first receipt of its event (for receiver C, the first 2xx it gave). A second listener forwards to receiver C,
which answers 500 to the first two requests of every event: the listener retries after about 1 s and 2 s (with
jitter), so its row shows the retry schedule, not a slowdown. Machine: ${figures.machine}, shared with other work (1-minute load average
${loadAtStart} at the start); Node ${figures.node}; ${figures.date}.

| path | p50 | p99 | max | received | verified | duplicates |
|---|---|---|---|---|---|---|
${row("completion -> listener -> receiver", figures.listener)}
${row("completion -> listener -> receiver failing twice, to the first 2xx", figures.retried, " (the two 500s each)")}
${row("completion -> service delivery -> receiver (reference)", figures.direct)}

Goals: listener p99 at most 1 s at 20 completions per second; with a receiver that fails twice, every event
delivered, p99 within the schedule's two waits (at most 1.2 s + 2.4 s) plus the plain path's p99.
`);
    console.log(`wrote the Listener forwarding section of ${path.relative(root, file)}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
