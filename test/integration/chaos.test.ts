import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { CHAOS_KINDS, chaosPlan, type ChaosKind } from "@/lib/contract/callbacks/chaos";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { baseUrl, db, depositBody, eventually, newMerchant } from "../support/fixtures";
import { listen, waitForLine } from "../support/listener";
import { startRobustReceiver } from "../../scripts/harness/robust-receiver";

// Chaos mode (docs/callbacks.md "Chaos mode") against real receivers that follow the receiver rules (docs/guides/receive-and-verify-callbacks.md): one at the
// configured address (the service's deliveries), one behind a `sandpiper listen` process. Payments are concluded
// until every kind has been injected on both paths. Each receiver must end with every payment processed once
// and every forged or stale request refused; injected requests are recorded with the expected answer and never
// touch the real deliveries.

it("chaos mode injects duplicates, delays, forged and stale requests; receivers that follow the rules stay correct", async () => {
  const m = await newMerchant();
  const direct = await startRobustReceiver();
  const forwarded = await startRobustReceiver();
  direct.state.secret = (await setCallbackUrl(db, { merchantId: m.merchant.id, url: direct.url })).secret;
  await db.merchant.update({ where: { id: m.merchant.id }, data: { chaosMode: true } });
  const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "chaos-")), "state.json");
  const run = listen(["--forward-to", forwarded.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile]);
  forwarded.state.secret = await run.secret;
  await waitForLine(run, /Ready: following/);

  const seen = { callback: new Set<ChaosKind>(), listener: new Set<ChaosKind>() };
  const payments: string[] = [];
  for (let round = 0; round < 12 && CHAOS_KINDS.some((k) => !seen.callback.has(k) || !seen.listener.has(k)); round++) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const created = await m.api("/v1/payments", { body: depositBody() });
        const done = await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: i % 3 ? "SUCCEEDED" : "FAILED" } });
        expect(done.status).toBe(200);
        return created.body.id as string;
      }),
    );
    payments.push(...batch);
    const events = await db.event.findMany({ where: { paymentId: { in: batch } }, select: { id: true, position: true } });
    for (const e of events) {
      chaosPlan(e.id, "callback").kinds.forEach((k) => seen.callback.add(k));
      chaosPlan(`${e.id}:${e.position}`, "listener").kinds.forEach((k) => seen.listener.add(k));
    }
  }
  expect([...seen.callback].sort()).toEqual([...CHAOS_KINDS].sort());
  expect([...seen.listener].sort()).toEqual([...CHAOS_KINDS].sort());

  const events = await db.event.findMany({ where: { merchantId: m.merchant.id }, select: { id: true, seq: true, position: true } });
  const plans = events.map((e) => ({ id: e.id, callback: chaosPlan(e.id, "callback"), listener: chaosPlan(`${e.id}:${e.position}`, "listener") }));
  const count = (target: "callback" | "listener", kind: ChaosKind) => plans.filter((p) => p[target].kinds.includes(kind)).length;

  // The service's deliveries: every one SUCCEEDED at its first attempt; the injections are their own rows.
  await eventually(async () => (await db.delivery.count({ where: { merchantId: m.merchant.id, state: "SUCCEEDED" } })) === events.length, 60_000);
  const expectedRows = plans.reduce((n, p) => n + p.callback.kinds.length, 0);
  await eventually(async () => (await db.chaosInjection.count({ where: { merchantId: m.merchant.id } })) === expectedRows, 30_000);
  const deliveries = await db.delivery.findMany({ where: { merchantId: m.merchant.id }, include: { attempts: true, injections: true } });
  for (const d of deliveries) {
    expect(d.attemptCount, "injections are not attempts").toBe(1);
    expect(d.attempts).toHaveLength(1);
    for (const i of d.injections) {
      const answered2xx = i.statusCode !== null && i.statusCode >= 200 && i.statusCode < 300;
      expect(answered2xx, `${i.kind} answered ${i.statusCode}`).toBe(i.expected === "2xx");
    }
  }
  // The receiver at the configured address: each payment processed once; every forged and stale request refused.
  expect(direct.state.processed.size).toBe(payments.length);
  expect([...direct.state.processed.values()].every((n) => n === 1)).toBe(true);
  expect(direct.state.refused.get("BAD_SIGNATURE") ?? 0).toBe(count("callback", "bad_signature"));
  expect(direct.state.refused.get("TIMESTAMP_OUT_OF_TOLERANCE") ?? 0).toBe(count("callback", "stale_timestamp"));
  expect([...direct.state.events.values()].filter((n) => n > 1)).toHaveLength(count("callback", "duplicate"));
  // Delays reorder: some event arrived after one that committed later.
  const position = new Map(direct.state.order.map((id, i) => [id, i]));
  const bySeq = [...events].sort((a, b) => Number(a.seq! - b.seq!)).map((e) => position.get(e.id)!);
  expect(
    bySeq.some((p, i) => bySeq.slice(i + 1).some((q) => q < p)),
    "a delayed event was overtaken",
  ).toBe(true);

  // The listener path: the same guarantees, and each injected request printed with what a correct receiver answers.
  await eventually(
    async () =>
      forwarded.state.processed.size === payments.length &&
      run.lines.filter((l) => l.includes("[chaos: ") && !l.includes("delayed")).length ===
        plans.reduce((n, p) => n + p.listener.kinds.filter((k) => k !== "delay").length, 0),
    60_000,
  );
  expect([...forwarded.state.processed.values()].every((n) => n === 1)).toBe(true);
  expect(forwarded.state.refused.get("BAD_SIGNATURE") ?? 0).toBe(count("listener", "bad_signature"));
  expect(forwarded.state.refused.get("TIMESTAMP_OUT_OF_TOLERANCE") ?? 0).toBe(count("listener", "stale_timestamp"));
  expect(run.lines.filter((l) => l.includes("IT DID NOT"))).toEqual([]);
  for (const kind of ["duplicate", "bad_signature", "stale_timestamp"])
    expect(
      run.lines.some((l) => l.includes(`[chaos: ${kind};`)),
      kind,
    ).toBe(true);
  expect(run.lines.some((l) => l.includes("[chaos: delayed"))).toBe(true);

  run.child.kill("SIGTERM");
  await run.exited;
  await direct.close();
  await forwarded.close();
}, 180_000);
