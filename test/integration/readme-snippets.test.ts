import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { FAILURE_CODES } from "@/lib/contract/schemas/api/failure-codes";
import { TEST_DATABASE_URL } from "../support/env";
import { baseUrl, db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { amountEntryMerchant } from "../support/checkout-sessions";
import { listen, waitForLine } from "../support/listener";
import { startReceiver } from "../support/receiver";
import { startRobustReceiver } from "../../scripts/harness/robust-receiver";
import { recreateDatabase } from "../support/global-setup";
import { docBlock } from "../support/readme";
import { present } from "../../scripts/harness/present";

// The receivers printed in docs/guides/receive-and-verify-callbacks.md "Receiving callbacks" are run as written,
// against real signed deliveries from the built service: the Node one (with PostgreSQL, and a copy of clients/cli/src/verify.ts as the guide says) and the
// Python one. Each must accept every real delivery, process each event once, and refuse a forged body, a bad
// signature, a stale timestamp and a mismatched event id. The code is read from the guide, so a guide
// that drifts from working code fails here.

const root = path.resolve(__dirname, "../..");
const work = path.join(root, "tmp", `readme-snippets-${process.pid}`);
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGTERM");
  fs.rmSync(work, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const { freePort: free } = await import("../../scripts/db.mjs");
  return free();
}

/** Starts a receiver process; resolves once its port accepts connections. Collects its output. */
async function startProcess(cmd: string, args: string[], env: Record<string, string>, port: number) {
  const output: string[] = [];
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  // Whole lines: a line may reach this process in several chunks (a print of several arguments, a busy pipe).
  for (const s of [child.stdout!, child.stderr!]) {
    let partial = "";
    s.setEncoding("utf8").on("data", (t: string) => {
      const lines = (partial + t).split("\n");
      partial = lines.pop() ?? "";
      output.push(...lines.filter(Boolean));
    });
  }
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`receiver exited: ${output.join("\n")}`);
    return fetch(`http://127.0.0.1:${port}/`, { method: "GET" }).then(
      () => true,
      () => false,
    );
  }, 30_000);
  return { child, output };
}

/** Sends `body` to the receiver signed with `secret` at `timestamp`; returns the status. */
async function post(url: string, body: string, headers: { id: string; timestamp: string; signature: string }): Promise<number> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-service-event-id": headers.id,
      "x-service-timestamp": headers.timestamp,
      "x-service-signature": headers.signature,
    },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}
const sign = (secret: string, timestamp: string, body: string) => createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/** Concludes payments (one FAILED) and waits until the service delivered each event; returns payments and events. */
async function deliveredPayments(m: TestMerchant, bodies: Record<string, unknown>[]) {
  const payments = [];
  for (const [i, body] of bodies.entries()) {
    const created = await m.api("/v1/payments", { body });
    const done = await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: i === 1 ? "FAILED" : "SUCCEEDED" } });
    payments.push(done.body);
  }
  await eventually(async () => (await db.delivery.count({ where: { merchantId: m.merchant.id, state: "SUCCEEDED" } })) === bodies.length, 30_000);
  const events = await db.event.findMany({ where: { merchantId: m.merchant.id } });
  return { payments, events };
}

/** The refusals every receiver of the guide must make; `event` is a real delivered event. Returns the statuses. */
async function refusals(url: string, secret: string, event: { id: string; body: string }) {
  const ts = nowSeconds();
  return {
    tamperedBody: await post(url, event.body.replace(/"amount":"[^"]+"/, '"amount":"999999.00"'), {
      id: event.id,
      timestamp: ts,
      signature: sign(secret, ts, event.body),
    }),
    badSignature: await post(url, event.body, { id: event.id, timestamp: ts, signature: sign("whsec_not-the-secret", ts, event.body) }),
    staleTimestamp: await post(url, event.body, {
      id: event.id,
      timestamp: String(Number(ts) - 600),
      signature: sign(secret, String(Number(ts) - 600), event.body),
    }),
    otherEventId: await post(url, event.body, { id: randomUUID(), timestamp: ts, signature: sign(secret, ts, event.body) }),
    duplicate: await post(url, event.body, { id: event.id, timestamp: ts, signature: sign(secret, ts, event.body) }),
  };
}
const REFUSED = { tamperedBody: 400, badSignature: 400, staleTimestamp: 400, otherEventId: 400, duplicate: 200 };

describe("the guide's receivers against real deliveries", () => {
  it("the Python receiver (standard library only) verifies real deliveries and refuses forged or stale requests", async () => {
    const file = path.join(work, "receiver.py");
    fs.mkdirSync(work, { recursive: true });
    fs.writeFileSync(file, docBlock("docs/guides/receive-and-verify-callbacks.md", "# receiver.py"));
    const m = await newMerchant();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/sandpiper/callbacks`;
    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url });
    const rx = await startProcess("python3", [file], { SANDPIPER_CALLBACK_SECRET: secret }, port);
    const { events } = await deliveredPayments(m, [depositBody(), depositBody(), depositBody()]);
    // The receiver prints before it answers; under load its output may reach this process a moment after the state.
    await eventually(async () => events.every((e) => rx.output.some((l) => l.startsWith(`processed ${e.id} ${e.type}`))), 5_000).catch(() => undefined);
    for (const e of events)
      expect(
        rx.output.some((l) => l.startsWith(`processed ${e.id} ${e.type}`)),
        e.id,
      ).toBe(true);
    expect(await refusals(url, secret, present(events[0], "events[0]"))).toEqual(REFUSED);
    expect(
      rx.output.filter((l) => l.startsWith(`processed ${present(events[0], "events[0]").id}`)),
      "a duplicate is not processed again",
    ).toHaveLength(1);
  }, 90_000);

  it("the Node receiver (PostgreSQL, verify.ts copied as the guide says) updates each order once and refuses forged or stale requests", async () => {
    const dir = path.join(work, "node");
    fs.mkdirSync(dir, { recursive: true });
    const code = docBlock("docs/guides/receive-and-verify-callbacks.md", "// receiver.ts");
    fs.writeFileSync(path.join(dir, "receiver.ts"), code);
    fs.copyFileSync(path.join(root, "clients", "cli", "src", "verify.ts"), path.join(dir, "verify.ts"));
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `${url.pathname}_readme`;
    await recreateDatabase(url.toString());
    const store = new pg.Client({ connectionString: url.toString() });
    await store.connect();
    try {
      // The tables as the snippet's comment gives them.
      for (const statement of code.match(/CREATE TABLE [^;]+;/g)!) await store.query(statement);
      const m = await newMerchant();
      const bodies = [depositBody({ amount: "10.00" }), depositBody({ amount: "20.50" }), depositBody({ amount: "30.75" })];
      for (const b of bodies) await store.query("INSERT INTO orders (reference, amount, currency) VALUES ($1, $2, $3)", [b.reference, b.amount, b.currency]);
      const port = await freePort();
      const target = `http://127.0.0.1:${port}/sandpiper/callbacks`;
      const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: target });
      await startProcess(
        process.execPath,
        ["--import", "tsx", path.join(dir, "receiver.ts")],
        { SANDPIPER_CALLBACK_SECRET: secret, DATABASE_URL: url.toString() },
        port,
      );
      const { events } = await deliveredPayments(m, bodies);
      const orders = await store.query("SELECT reference, payment_status FROM orders ORDER BY amount");
      expect(orders.rows.map((r) => r.payment_status)).toEqual(["SUCCEEDED", "FAILED", "SUCCEEDED"]);
      expect(await refusals(target, secret, present(events[0], "events[0]"))).toEqual(REFUSED);
      const stored = await store.query("SELECT count(*)::int AS n FROM processed_events");
      expect(stored.rows[0].n, "each event stored once").toBe(3);
    } finally {
      await store.end();
    }
  }, 120_000);
});

describe("docs/guides/receive-and-verify-callbacks.md 'Events API': the redeliver line", () => {
  it("run as written for two events and twice for one, makes a new redelivery each time", async () => {
    const line = docBlock("docs/guides/receive-and-verify-callbacks.md", "# walk-through: events")
      .split("\n")
      .find((l) => l.includes("/redeliver"));
    expect(line, "the guide shows a redeliver call").toBeTruthy();
    const m = await newMerchant();
    for (const _ of [1, 2]) {
      const created = await m.api("/v1/payments", { body: depositBody() });
      await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } });
    }
    const events = (await m.api("/v1/events")).body.items.map((e: { id: string }) => e.id);
    expect(events).toHaveLength(2);
    /** The guide's line with the event id put in, through bash and curl as a reader runs it; status and body. */
    const redeliver = (eventId: string) => {
      const command = `${line!.replace("<EVENT_ID>", eventId)} -H "X-Forwarded-For: ${m.ip}" -w '\n%{http_code}'`;
      const out = execFileSync("bash", ["-c", command], { env: { ...process.env, BASE: baseUrl(), KEY: m.key }, encoding: "utf8" });
      const cut = out.lastIndexOf("\n");
      return { status: Number(out.slice(cut + 1)), body: JSON.parse(out.slice(0, cut)) };
    };
    const answers = [redeliver(events[0]), redeliver(events[1]), redeliver(events[0])];
    expect(
      answers.map((a) => a.status),
      JSON.stringify(answers),
    ).toEqual([201, 201, 201]);
    expect(answers.map((a) => a.body.eventId)).toEqual([events[0], events[1], events[0]]);
    expect(new Set(answers.map((a) => a.body.id)).size, "three redeliveries, none replayed").toBe(3);
  });
});

/**
 * What the guide's test scripts may change of a merchant and must put back when they end: its scenario rules
 * (every member, in order), its sandbox clock offset and its fast retries setting, read through the API.
 */
async function sandboxState(m: TestMerchant) {
  const [rules, clock, settings] = await Promise.all([m.api("/v1/sandbox/scenario-rules"), m.api("/v1/sandbox/clock"), m.api("/v1/sandbox/settings")]);
  for (const r of [rules, clock, settings]) expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { rules: rules.body.items, clockOffsetMs: clock.body.offsetMs, fastRetries: settings.body.fastRetries };
}

describe('docs/guides/test-every-path.md "Test helpers": the CI script as written', () => {
  it("quotes and confirms a checkout session, sees a callback delivered after two failures and a payment expired by the sandbox clock, with curl and jq only", async () => {
    // The script's keys: its curl calls come from loopback, so both merchants allow it (as a CI host is allow-listed).
    const ae = await amountEntryMerchant({ allowedIps: ["127.0.0.1", "::1"] });
    const m = await newMerchant({ allowedIps: ["127.0.0.1", "::1"] });
    const rx = await startReceiver((_r, i) => ({ status: i < 2 ? 500 : 200 }));
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const file = path.join(work, "test-helpers.sh");
    fs.mkdirSync(work, { recursive: true });
    fs.writeFileSync(file, docBlock("docs/guides/test-every-path.md", "# test-helpers.sh"));
    const before = await sandboxState(m);
    const started = Date.now();
    const output: string[] = [];
    const child = spawn("bash", [file], { cwd: root, env: { ...process.env, KEY: m.key, AE_KEY: ae.key, BASE: baseUrl() }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    for (const stream of [child.stdout!, child.stderr!]) stream.setEncoding("utf8").on("data", (t: string) => output.push(...t.split("\n").filter(Boolean)));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code, output.join("\n")).toBe(0);
    expect(output).toEqual([
      "quoted: 250.00 USD = 936.56 AED",
      "session: AWAITING_VERIFICATION",
      '{"fastRetries":true,"waits":[0.5,2,5,10,20,40,60]}',
      "callback: SUCCEEDED after 3 attempts",
      "listener: no sandpiper listen forwarded it",
      "clock: 2h ahead, 1 expired",
      "late payment: EXPIRED",
      "clock: 0s",
      "cleanup: fast retries false again, sandbox clock 0s ahead again",
    ]);
    // The script put back what it changed: fast retries off again, the clock where it was.
    expect(await sandboxState(m), "the merchant's sandbox state after the script").toEqual(before);
    expect(before.fastRetries, "the script did switch fast retries on while it ran").toBe(false);
    expect(Date.now() - started, "the whole run takes seconds, not the normal schedule's minutes").toBeLessThan(60_000);
    // Three attempts of the first payment's payment.succeeded, then the expired payment's payment.expired.
    await rx.waitFor(4);
    expect(rx.received.map((r) => JSON.parse(r.body.toString()).type)).toEqual([
      "payment.succeeded",
      "payment.succeeded",
      "payment.succeeded",
      "payment.expired",
    ]);
    const session = await db.checkoutSession.findFirstOrThrow({ where: { merchantId: ae.merchant.id } });
    expect(session.state).toBe("AWAITING_VERIFICATION");
    await rx.close();
  }, 90_000);

  it("without a callback address the script says NOT_CONFIGURED plainly, and a sandpiper listen --retry-schedule service running meanwhile reaches DELIVERED on the service's schedule", async () => {
    const ae = await amountEntryMerchant({ allowedIps: ["127.0.0.1", "::1"] });
    const m = await newMerchant({ allowedIps: ["127.0.0.1", "::1"] });
    // As the guide says: fast retries first (the listener reads the setting when it starts), then the listener.
    expect((await m.api("/v1/sandbox/settings", { method: "PUT", body: { fastRetries: true } })).status).toBe(200);
    const rx = await startRobustReceiver({ failFirst: 2 });
    const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "guide-listen-")), "state.json");
    const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile, "--retry-schedule", "service"]);
    try {
      rx.state.secret = await run.secret;
      await waitForLine(run, /Ready: following/);
      const file = path.join(work, "test-helpers-listen.sh");
      fs.mkdirSync(work, { recursive: true });
      fs.writeFileSync(file, docBlock("docs/guides/test-every-path.md", "# test-helpers.sh"));
      const output: string[] = [];
      const child = spawn("bash", [file], {
        cwd: root,
        env: { ...process.env, KEY: m.key, AE_KEY: ae.key, BASE: baseUrl() },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      for (const stream of [child.stdout!, child.stderr!]) stream.setEncoding("utf8").on("data", (t: string) => output.push(...t.split("\n").filter(Boolean)));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code, output.join("\n")).toBe(0);
      expect(output.filter((l) => /^(callback|listener|cleanup):/.test(l))).toEqual([
        "callback: NOT_CONFIGURED after 0 attempts",
        "listener: DELIVERED after 3 attempts",
        "cleanup: fast retries true again, sandbox clock 0s ahead again",
      ]);
      // The guide's words are the script's.
      const guide = fs.readFileSync(path.join(root, "docs/guides/test-every-path.md"), "utf8").replace(/\s+/g, " ");
      for (const line of output.filter((l) => /^(callback: NOT_CONFIGURED|listener: DELIVERED)/.test(l))) expect(guide).toContain(`\`${line}\``);
    } finally {
      run.child.kill("SIGTERM");
      await run.exited;
      await rx.close();
    }
  }, 120_000);

  it('docs/guides/test-every-path.md "Testing your integration": the scenario rules script runs as written; a fail- payment fails by the standard set', async () => {
    const m = await newMerchant({ allowedIps: ["127.0.0.1", "::1"] });
    // A rule the merchant already has, under a standard rule's name and switched off: the standard set does not add
    // that one again, and the script's cleanup must leave it (off) while removing the five it added and its own.
    const own = await m.api("/v1/sandbox/scenario-rules", {
      body: { name: "Amount 13.13 fails", enabled: false, match: { amount: "13.13" }, outcome: "FAILED" },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const file = path.join(work, "scenario-rules.sh");
    fs.mkdirSync(work, { recursive: true });
    fs.writeFileSync(file, docBlock("docs/guides/test-every-path.md", "# scenario-rules.sh"));
    const before = await sandboxState(m);
    const text = { stdout: "", stderr: "" };
    const child = spawn("bash", [file], { cwd: root, env: { ...process.env, KEY: m.key, BASE: baseUrl() }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    // Split into lines once it has ended: curl writes its error a few characters at a time.
    child.stdout!.setEncoding("utf8").on("data", (t: string) => (text.stdout += t));
    child.stderr!.setEncoding("utf8").on("data", (t: string) => (text.stderr += t));
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    const output = [...text.stdout.split("\n"), ...text.stderr.split("\n")].filter(Boolean);
    expect(code, output.join("\n")).toBe(0);
    // The outputs the script's comments promise are the ones it prints.
    const script = docBlock("docs/guides/test-every-path.md", "# scenario-rules.sh");
    for (const [, promised] of script.matchAll(/ {3}# ((?:payment|declined): .+)$/gm)) expect(output, "as its comment says").toContain(promised);
    expect(output).toEqual([
      "6 rules, first: Amount 13.13 fails",
      "payment: FAILED by rule Reference fail- fails",
      "EUR 99.99 fails late: enabled=false",
      "declined: FAILED insufficient_funds",
      "cleanup: removed the 6 rules this script added",
    ]);
    // The declined payment's payment.failed event carries the same failure as its answer.
    const declined = await db.payment.findFirstOrThrow({ where: { merchantId: m.merchant.id, reference: { startsWith: "declined-" } } });
    const event = await db.event.findFirstOrThrow({ where: { paymentId: declined.id, type: "payment.failed" } });
    expect(JSON.parse(event.body).data.failure).toEqual({ code: "insufficient_funds", message: FAILURE_CODES.insufficient_funds.message });
    // The rules are as they were before the script: only the merchant's own, still off.
    expect(await sandboxState(m), "the merchant's sandbox state after the script").toEqual(before);
    expect(before.rules.map((r: { id: string; enabled: boolean }) => [r.id, r.enabled])).toEqual([[own.body.id, false]]);
  }, 60_000);

  it("the scenario rules script stopped by a failing step still removes the rules it added", async () => {
    // The key may manage rules but not create payments: the script fails at its payment, after adding the rules.
    const m = await newMerchant({ allowedIps: ["127.0.0.1", "::1"], scopes: ["payments:read", "sandbox:simulate"] });
    const file = path.join(work, "scenario-rules-failing.sh");
    fs.mkdirSync(work, { recursive: true });
    fs.writeFileSync(file, docBlock("docs/guides/test-every-path.md", "# scenario-rules.sh"));
    const before = await sandboxState(m);
    const text = { stdout: "", stderr: "" };
    const child = spawn("bash", [file], { cwd: root, env: { ...process.env, KEY: m.key, BASE: baseUrl() }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    // Split into lines once it has ended: curl writes its error a few characters at a time.
    child.stdout!.setEncoding("utf8").on("data", (t: string) => (text.stdout += t));
    child.stderr!.setEncoding("utf8").on("data", (t: string) => (text.stderr += t));
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    const output = text.stdout.split("\n").filter(Boolean);
    expect(code, `${text.stdout}${text.stderr}`).not.toBe(0);
    expect(output[0]).toBe("6 rules, first: Amount 13.13 fails");
    expect(text.stderr, "curl reports the refused payment").toMatch(/returned error: 403/);
    // What the guide says the script prints at its end for a merchant without rules, as this one is.
    const promised = /prints `(cleanup: removed the \d+ rules this script added)` for a merchant that had no\s+scenario rules/.exec(
      fs.readFileSync(path.join(root, "docs/guides/test-every-path.md"), "utf8"),
    )?.[1];
    expect(output.at(-1)).toBe("cleanup: removed the 7 rules this script added");
    expect(output.at(-1), "the guide's count is the script's").toBe(promised);
    expect(await sandboxState(m), "the merchant's sandbox state after the failed script").toEqual(before);
  }, 60_000);
});
