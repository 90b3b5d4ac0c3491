/**
 * Micro-benchmark of the one redaction rule (docs/operating.md "Secrets in logs and traces"; lib/platform/redaction/redact.ts)
 * on what each outlet passes it per request.
 *
 * Run: node --import tsx bench/redaction.ts [--rounds 5] [--calls 20000] [--write]
 *
 * Times, with process.hrtime.bigint, `--calls` calls of each case after a warm-up, `--rounds` times, and reports the
 * median microseconds per call: the stdout log's request line written by pino to /dev/null with and without the
 * redaction (lib/platform/log.ts LOG_OPTIONS against plain pino), the request log's bodies and query, a Next.js request span's
 * attributes and an error message. Writes/replaces the section "## Redaction" in docs/benchmarks.md with --write.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import pino from "pino";
import { LOG_OPTIONS } from "../lib/platform/log";
import { redactBody, redactQuery, redactText, redactValue } from "../lib/platform/redaction/redact";
import { numberArg, runBenchmark } from "./support";
import { present } from "../scripts/harness/present";

const ROUNDS = numberArg("--rounds", 5);
const CALLS = numberArg("--calls", 20_000);

const paymentId = randomUUID();
const createBody = JSON.stringify({
  reference: `order-${randomUUID()}`,
  amount: "125.50",
  currency: "USD",
  method: "GATEWAY",
  direction: "DEPOSIT",
  customer: { email: "buyer@example.com", name: "A Buyer" },
});
const answer = JSON.stringify({
  id: paymentId,
  reference: "order-1234",
  status: "PENDING",
  amount: "125.50",
  currency: "USD",
  method: "GATEWAY",
  direction: "DEPOSIT",
  charge: { amount: "460.90", currency: "AED", fxRate: "3.672500", markupBps: 150 },
  customerCheckout: { url: `https://sandbox.example.com/checkout/${"a".repeat(32)}`, expiresAt: "2026-11-28T03:00:00.000Z" },
  createdAt: "2026-11-28T02:30:00.000Z",
  expiresAt: "2026-11-28T03:00:00.000Z",
  events: [{ type: "payment.created", at: "2026-11-28T02:30:00.000Z" }],
});
const spanAttributes = {
  "http.method": "GET",
  "http.target": "/v1/payments?limit=20&page=2&status=PENDING",
  "next.span_name": "GET /v1/payments",
  "next.span_type": "BaseServer.handleRequest",
  "http.status_code": 200,
};
const requestLine = { requestId: randomUUID(), merchantId: randomUUID(), method: "GET", path: `/v1/payments/${paymentId}`, status: 200, latencyMs: 4.2 };

/** Median microseconds per call of `fn` over ROUNDS rounds of CALLS calls (after one warm-up round). */
function time(fn: () => unknown): number {
  const rounds: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) fn();
    if (round > 0) rounds.push(Number(process.hrtime.bigint() - started) / 1000 / CALLS);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!;
}

async function main(): Promise<string> {
  const sink = pino.destination({ dest: "/dev/null", sync: true });
  const plain = pino({ level: "info", base: { service: "sandpiper" } }, sink);
  const redacting = pino({ ...LOG_OPTIONS, level: "info" }, sink);
  const rows: [string, number][] = [
    ["stdout log: the request line, plain pino", time(() => plain.info(requestLine, "request"))],
    ["stdout log: the request line, redacted (lib/platform/log.ts)", time(() => redacting.info(requestLine, "request"))],
    [`request log: a create body (${createBody.length} B)`, time(() => redactBody(createBody))],
    [`request log: a payment answer (${answer.length} B)`, time(() => redactBody(answer))],
    ["request log: a list query", time(() => redactQuery("limit=20&page=2&status=PENDING&search=order-1234"))],
    ["span: a Next.js request span's attributes", time(() => redactValue(spanAttributes))],
    ["error message", time(() => redactText("unknown property: discountCode"))],
  ];
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");
  return [
    "## Redaction",
    "",
    `Command: \`node --import tsx bench/redaction.ts --rounds ${ROUNDS} --calls ${CALLS} --write\``,
    "",
    `What each outlet of the one redaction rule (docs/operating.md "Secrets in logs and traces") costs per call: the median of ${ROUNDS} rounds of ${CALLS.toLocaleString("en")} calls after a warm-up, one process. Machine: ${os.cpus().length} x ${os.cpus()[0]?.model.trim()}, load average ${load}; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    "",
    "| case | µs per call |",
    "|---|---|",
    ...rows.map(([label, us]) => `| ${label} | ${us.toFixed(1)} |`),
    "",
    `A request costs its stdout line's redaction (${(present(rows[1], "rows[1]")[1] - present(rows[0], "rows[0]")[1]).toFixed(1)} µs over plain pino), its request log row's bodies and query when the log is on (written in batches, off the request's path), and its spans' when tracing is on: tens of microseconds against the milliseconds of a request (docs/benchmarks.md "API load").`,
  ].join("\n");
}

runBenchmark(main);
