import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { verifyCallback } from "@/clients/cli/src/verify";
import { listenerSecret } from "@/lib/contract/callbacks/listener-secret";
import { baseUrl, db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { listen, runCommand, waitForLine, type Running } from "../support/listener";
import { startReceiver, type Received } from "../support/receiver";
import { waitUntil } from "../../scripts/harness/wait";

// `sandpiper listen` with several routes, a type filter and --print-secret (docs/callbacks.md "Routes and filters"):
// real processes throughout: the suite's built service, listener processes (bin/sandpiper.mjs), receivers on
// loopback that verify every request with the secret the listener printed.

const root = path.resolve(__dirname, "../..");

function stateFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "listen-routes-")), "state.json");
}

/** Creates a deposit and concludes it with `outcome`; returns the id of its event. */
async function concluded(m: TestMerchant, outcome: "SUCCEEDED" | "FAILED"): Promise<string> {
  const created = await m.api("/v1/payments", { body: depositBody() });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const done = await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome } });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return (await db.event.findFirstOrThrow({ where: { paymentId: created.body.id } })).id;
}

/** The event ids of what a receiver got, each request checked against the listener secret. */
function verifiedIds(received: Received[], secret: string): string[] {
  return received.map((r) => {
    const verified = verifyCallback(r.body, r.headers as Record<string, string>, secret);
    expect(verified, r.body.toString().slice(0, 120)).toMatchObject({ ok: true });
    return verified.ok ? verified.eventId : "";
  });
}

async function stop(run: Running): Promise<void> {
  run.child.kill("SIGTERM");
  expect(await run.exited).toBe(0);
}

/** `sandpiper listen <args>` run to its end, with only the variables a shell gives plus `env`. */
function listenOnce(args: string[], env: Record<string, string> = {}) {
  return runCommand(process.execPath, [path.join(root, "bin", "sandpiper.mjs"), "listen", ...args], {
    cwd: fs.mkdtempSync(path.join(os.tmpdir(), "listen-routes-cwd-")),
    env: { NODE_ENV: process.env.NODE_ENV, PATH: process.env.PATH, HOME: os.tmpdir(), ...env },
  });
}

it("a payment.failed route and the default route: each event reaches only its receiver; a failing route retries without holding up the other", async () => {
  const m = await newMerchant();
  const rxB = await startReceiver();
  /** How many requests B had got when A answered its first request (held open until B got one, at most 8 s). */
  let bWhileAHeld = -1;
  const rxA = await startReceiver(async (_r, index) => {
    if (index > 0) return {};
    // Shorter than the listener's 10 s forward time-limit: were the routes one queue, B would get nothing meanwhile.
    await waitUntil(() => rxB.received.length > 0, { what: "B's first request", timeoutMs: 8_000, intervalMs: 25 }).catch(() => undefined);
    bWhileAHeld = rxB.received.length;
    return { status: 503 };
  });
  const run = listen([
    "--forward",
    `payment.failed=${rxA.url}`,
    "--forward-to",
    rxB.url,
    "--api-url",
    baseUrl(),
    "--api-key",
    m.key,
    "--state-file",
    stateFile(),
  ]);
  const secret = await run.secret;
  await waitForLine(run, /Ready: following/);
  const portA = new URL(rxA.url).port;
  const portB = new URL(rxB.url).port;
  expect(run.lines).toContain(`[payment.failed → :${portA}/callbacks]  Forwarding payment.failed events to ${rxA.url}`);
  expect(run.lines).toContain(`[default → :${portB}/callbacks]  Forwarding events of every other type to ${rxB.url}`);

  const failed = await concluded(m, "FAILED");
  await rxA.waitFor(1, 20_000);
  // A holds the failed payment's first forward open; the succeeded payment's event must reach B meanwhile.
  const succeeded = await concluded(m, "SUCCEEDED");
  await rxA.waitFor(2, 30_000);
  expect(bWhileAHeld, "B got its event while A's request was still open").toBe(1);
  expect(verifiedIds(rxA.received, secret), "A: the failed payment's event only, the second time on a retry").toEqual([failed, failed]);
  // waits on purpose: a wrongly routed forward would arrive within this time; nothing else can be awaited
  await new Promise((r) => setTimeout(r, 500));
  expect(verifiedIds(rxB.received, secret), "B: the succeeded payment's event only, once").toEqual([succeeded]);

  // Every line of a route starts with its label.
  expect(run.lines.some((l) => l.startsWith(`[payment.failed → :${portA}/callbacks]  `) && / -> 503 .*attempt 1, next in/.test(l) && l.includes(failed))).toBe(
    true,
  );
  expect(run.lines.some((l) => l.startsWith(`[payment.failed → :${portA}/callbacks]  `) && / -> 200 .*attempt 2\b/.test(l) && l.includes(failed))).toBe(true);
  expect(run.lines.some((l) => l.startsWith(`[default → :${portB}/callbacks]  `) && / -> 200 .*attempt 1\b/.test(l) && l.includes(succeeded))).toBe(true);

  // The forwards recorded on the service carry each route's URL.
  const forwardsOf = async (eventId: string, attempts: number) =>
    eventually(async () => {
      const forwards = (await m.api(`/v1/events/${eventId}`)).body.forwards;
      return forwards?.[0]?.attempts?.length === attempts ? forwards : null;
    }, 15_000);
  const [a] = await forwardsOf(failed, 2);
  expect(a.forwardTo).toBe(rxA.url);
  expect(a.attempts.map((x: { statusCode: number | null }) => x.statusCode)).toEqual([503, 200]);
  const [b] = await forwardsOf(succeeded, 1);
  expect([b.forwardTo, b.attempts[0].statusCode]).toEqual([rxB.url, 200]);

  // --print-secret prints exactly the secret the listener printed, and nothing else.
  const printed = await listenOnce(["--print-secret"], { SANDPIPER_API_KEY: m.key, SANDPIPER_API_URL: baseUrl() });
  expect([printed.code, printed.stdout, printed.stderr]).toEqual([0, `${secret}\n`, ""]);

  await stop(run);
  expect(run.lines.some((l) => /^Stopped: 2 delivered, 1 retries/.test(l))).toBe(true);
  await Promise.all([rxA.close(), rxB.close()]);
}, 120_000);

it("without a default route other types are skipped (one line, counted, the cursor passes them); --events forwards only its types", async () => {
  const m = await newMerchant();
  const rxA = await startReceiver();
  const rxB = await startReceiver();
  const fileA = stateFile();
  const common = ["--api-url", baseUrl(), "--api-key", m.key];
  const routed = listen(["--forward", `payment.failed=${rxA.url}`, "--state-file", fileA, ...common]);
  const filtered = listen(["--forward-to", rxB.url, "--events", "payment.failed", "--state-file", stateFile(), ...common]);
  const secret = await routed.secret;
  await waitForLine(routed, /Ready: following/);
  await waitForLine(filtered, /Ready: following/);
  expect(routed.lines).toContain("Events of other types are skipped (no --forward-to)");

  // Two succeeded payments, then a failed one: first attempts go in feed order, so once the failed event has
  // arrived, the succeeded ones before it were handled.
  await concluded(m, "SUCCEEDED");
  await concluded(m, "SUCCEEDED");
  const failed = await concluded(m, "FAILED");
  await rxA.waitFor(1, 20_000);
  await rxB.waitFor(1, 20_000);
  // waits on purpose: a filtered-out event would arrive within this time; nothing else can be awaited
  await new Promise((r) => setTimeout(r, 500));
  expect(verifiedIds(rxA.received, secret)).toEqual([failed]);
  expect(verifiedIds(rxB.received, secret), "--events payment.failed: the succeeded events never came").toEqual([failed]);

  const skippedLines = routed.lines.filter((l) => l.includes("payment.succeeded events match no route"));
  expect(skippedLines, "one line for the skipped type").toHaveLength(1);
  await stop(routed);
  expect(routed.lines).toContain("Stopped: 1 delivered, 0 retries, 0 given up, 0 chaos requests, 2 skipped (no route for their type).");
  const position = (await db.event.findUniqueOrThrow({ where: { id: failed } })).position!;
  expect(JSON.parse(fs.readFileSync(fileA, "utf8")).cursor, "the skipped events do not hold the cursor back").toBe(position.toString());
  await stop(filtered);
  await Promise.all([rxA.close(), rxB.close()]);
}, 120_000);

it("--print-secret asks the service for the secret's generation and exits 0; mistakes and combinations that cannot work exit 2 with one line", async () => {
  const m = await newMerchant();
  const printed = await listenOnce(["--print-secret", "--api-url", baseUrl()], { SANDPIPER_API_KEY: m.key });
  // A key made now starts at generation 1: its secret is the form Standard Webhooks libraries take, printed as it is.
  expect([printed.code, printed.stdout, printed.stderr]).toEqual([0, `${listenerSecret(m.key, 1)}\n`, ""]);
  // After a rotation it prints the new generation's secret.
  const rotated = await m.api("/v1/sandbox/listener-secret/rotate", { body: { overlap: "0s" } });
  expect(rotated.status, rotated.text).toBe(200);
  const flag = await listenOnce(["--print-secret", "--api-key", m.key, "--api-url", baseUrl()]);
  expect([flag.code, flag.stdout]).toEqual([0, `${listenerSecret(m.key, 2)}\n`]);
  expect(flag.stdout).toBe(`${rotated.body.secret}\n`);
  // Port 9 (discard) has nothing listening: no generation, no secret (exit 1).
  const unreachable = await listenOnce(["--print-secret", "--api-url", "http://127.0.0.1:9"], { SANDPIPER_API_KEY: m.key });
  expect([unreachable.code, unreachable.stdout]).toEqual([1, ""]);
  const key = "sk_sandbox_print-secret-test-key";

  const url = "http://127.0.0.1:9/hook";
  for (const [args, message] of [
    [["--print-secret"], /an API key is required/],
    [["--print-secret", "--forward-to", url], /--print-secret only prints the secret: it does not go with --forward-to/],
    [["--forward", `payment.failed=${url}`, "--forward", `payment.failed=${url}2`], /--forward payment\.failed is given twice/],
    [["--forward", `payment.refunded=${url}`], /--forward: unknown event type "payment\.refunded"; use payment\.succeeded, payment\.failed, payment\.expired/],
    [["--forward", url], /--forward takes <event type>=<url>/],
    [["--forward-to", url, "--events", "payment.paid"], /--events: unknown type payment\.paid; use payment\.succeeded, payment\.failed, payment\.expired/],
    [["--forward", `payment.failed=${url}`, "--events", "payment.expired"], /--forward payment\.failed=\.\.\. would get nothing/],
    [["--forward", `payment.failed=${url}`, "--events", "payment.failed,payment.expired"], /--events payment\.expired has no route/],
    [[], /--forward-to is required/],
  ] as const) {
    const run = await listenOnce([...args], args[0] === "--print-secret" ? {} : { SANDPIPER_API_KEY: key });
    expect([run.code, run.stdout], run.out).toEqual([2, ""]);
    expect(run.stderr.trim().split("\n"), run.out).toEqual([expect.stringMatching(message)]);
    expect(run.out).not.toContain(key);
  }
  const help = await listenOnce(["--help"]);
  expect([help.code, help.stdout]).toEqual([0, expect.stringContaining("--forward <type>=<url>")]);
  expect(help.stdout).toContain("--print-secret");
}, 120_000);
