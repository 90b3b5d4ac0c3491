import { dubaiDay } from "@/lib/contract/money/dubai";
import { afterAll, describe, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { verifyCallback } from "@/clients/cli/src/verify";
import { listen, waitForLine } from "../support/listener";
import { startReceiver } from "../support/receiver";
import { spawnCollected, waitForOutput } from "../../scripts/harness/process";
import { assertPresent, present } from "../../scripts/harness/present";

// README "Quick start": `npm start` without DATABASE_URL runs the built service on the embedded PGlite database,
// seeds it and prints the credentials; the curl walk-through then works as written. Run here as `node
// scripts/start.mjs --no-build` (the suite has built the service already) with its own data folder
// (SANDPIPER_DATA_DIR) and port, so a developer's .data is never touched.

const root = path.resolve(__dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-quick-start-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

type Started = { child: ChildProcess; output: () => string; base: string };

/** `npm start` as a new user runs it: no DATABASE_URL, production mode, nothing test-only. */
async function npmStart(port: number): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SANDPIPER_DATA_DIR: dataDir,
    PORT: String(port),
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: "warn",
  };
  for (const name of ["DATABASE_URL", "CALLBACK_ALLOW_LOOPBACK", "DB_POOL_MAX", "NEXTAUTH_SECRET", "TRUSTED_PROXIES", "JOBS_DISABLED"]) delete env[name];
  const started = spawnCollected(process.execPath, ["scripts/start.mjs", "--no-build"], { cwd: root, env });
  await waitForOutput(started, /Sandpiper is running on/, { what: "npm start to come up", timeoutMs: 150_000 });
  return { ...started, base: `http://127.0.0.1:${port}` };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

const keyFrom = (output: string) => /API key \(all scopes\) (sk_sandbox_\S+)/.exec(output)?.[1];

/** Steps 1-4 of the curl walk-through (docs/guides/accept-a-payment.md) with `key`; returns the created payment. */
async function walkThrough(base: string, key: string) {
  const auth = { authorization: `Bearer ${key}` };
  const json = { ...auth, "content-type": "application/json" };
  const reference = `order-${randomUUID()}`;
  const created = await fetch(`${base}/v1/payments`, {
    method: "POST",
    headers: { ...json, "idempotency-key": `${reference}-create` },
    body: JSON.stringify({ reference, amount: "1123.52", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" }),
  });
  const payment = await created.json();
  expect(created.status, JSON.stringify(payment)).toBe(201);
  expect(payment).toMatchObject({ status: "PENDING", amount: "1123.52", currency: "USD", environment: "sandbox" });
  expect(payment.pricing).toMatchObject({ chargeCurrency: "AED", baseRate: "3.6725", amountMinor: "112352" });

  const read = await fetch(`${base}/v1/payments/${payment.id}`, { headers: auth });
  expect(read.status).toBe(200);
  const completed = await fetch(`${base}/v1/sandbox/payments/${payment.id}/complete`, {
    method: "POST",
    headers: { ...json, "idempotency-key": `${reference}-complete` },
    body: JSON.stringify({ outcome: "SUCCEEDED" }),
  });
  expect(completed.status).toBe(200);
  expect((await completed.json()).status).toBe("SUCCEEDED");
  const list = await (await fetch(`${base}/v1/payments?status=SUCCEEDED&limit=10&search=${reference}`, { headers: auth })).json();
  expect(list.items.map((p: { id: string }) => p.id)).toEqual([payment.id]);
  // docs/guides/receive-and-verify-callbacks.md "Events API": the event of the completion, and a redelivery of it.
  const events = await (await fetch(`${base}/v1/events?paymentId=${payment.id}`, { headers: auth })).json();
  expect(events.items).toMatchObject([{ type: "payment.succeeded", data: { id: payment.id } }]);
  const redelivered = await fetch(`${base}/v1/events/${events.items[0].id}/redeliver`, {
    method: "POST",
    headers: { ...auth, "idempotency-key": `${reference}-redeliver` },
  });
  expect(redelivered.status).toBe(201);
  return payment;
}

describe("README quick start on the embedded database", () => {
  it("npm start seeds PGlite, prints the credentials, and the curl walk-through works; after a restart on a later day it still works", async () => {
    const { freePort } = await import("../../scripts/db.mjs");
    const first = await npmStart(await freePort());
    let key: string | undefined;
    try {
      expect(first.output()).toMatch(/Embedded database \(PGlite\)/);
      expect(first.output()).toMatch(/Seeded the sandbox/);
      expect(first.output()).toMatch(/console operator\s+operator \/ \S+/);
      key = keyFrom(first.output());
      expect(key).toMatch(/^sk_sandbox_[0-9A-Za-z]+$/);
      // docs/guides/receive-and-verify-callbacks.md "Receiving callbacks on your own machine": a listener on the embedded sandbox forwards the walk-through's event.
      const rx = await startReceiver();
      const run = listen([
        "--forward-to",
        `${rx.origin}/hook`,
        "--api-url",
        first.base,
        "--api-key",
        key!,
        "--state-file",
        path.join(dataDir, "listen-state.json"),
      ]);
      try {
        await waitForLine(run, /Ready: following/);
        const payment = await walkThrough(first.base, key!);
        const [forwarded] = await rx.waitFor(1, 20_000);
        assertPresent(forwarded, "forwarded");
        expect(JSON.parse(forwarded?.body.toString())).toMatchObject({ type: "payment.succeeded", data: { id: payment.id } });
        expect(verifyCallback(forwarded?.body, forwarded?.headers as Record<string, string>, await run.secret)).toMatchObject({ ok: true });
      } finally {
        run.child.kill("SIGTERM");
        await run.exited;
        await rx.close();
      }
    } finally {
      expect(await stop(first.child)).toBe(0);
    }

    // Months later: the seeded window of rates has run out (every rate moved 200 days back, as a sandbox left
    // unstarted that long has them). The next start extends the seeded pair's window to today and beyond; the data
    // and keys are kept.
    const { PGlite } = await import("@electric-sql/pglite");
    const pglite = await PGlite.create({ dataDir: path.join(dataDir, "pglite") });
    await pglite.query("UPDATE fx_rates SET day = to_char(day::date - 200, 'YYYY-MM-DD')");
    const shifted = await pglite.query<{ last: string }>("SELECT max(day) AS last FROM fx_rates");
    await pglite.close();
    expect(present(shifted?.rows[0], "shifted?.rows[0]").last < dubaiDay()).toBe(true);

    const second = await npmStart(await freePort());
    try {
      // Not seeded again (a seed run would issue and print new keys): the kept credentials are printed again.
      expect(keyFrom(second.output()), "the credentials are printed again").toBe(key);
      expect(second.output()).not.toMatch(/new API keys issued/);
      expect(second.output(), "nothing was seeded now").not.toMatch(/Seeded the sandbox/);
      expect(second.output()).toMatch(/The sandbox was seeded at its first start; its credentials \(kept in \S*credentials\.txt\):/);
      const payment = await walkThrough(second.base, key!);
      expect(payment.pricing.rateDay).toBe(dubaiDay());
    } finally {
      expect(await stop(second.child)).toBe(0);
    }
  }, 400_000);
});
