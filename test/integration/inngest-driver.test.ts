import { afterAll, describe, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { startReceiver } from "../support/receiver";
import { TEST_DATABASE_URL } from "../support/env";
import { startService } from "../support/global-setup";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";

// Exactly one driver runs. A dedicated service instance (same database) is started with INNGEST_DEV
// pointing at a stand-in for the Inngest dev server (the inngest-cli binary cannot be installed here): it
// must not start the embedded driver, and committing an event must send sandpiper/delivery.due to Inngest
// after the commit. The stand-in looks the delivery up in the database while the send is still waiting
// for its answer: had the event been sent inside the transaction, the row would not be visible yet.

const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of children) c.kill("SIGTERM");
  await Promise.all(closers.map((c) => c()));
});

/**
 * Starts `node server.mjs` with LOG_LEVEL=info and its output captured, with a console secret of its own: without one
 * the start reads the shared one from the database, and one case points at a database that does not exist
 * (docs/operating.md "Scaling").
 */
async function startLoggedService(env: Record<string, string>) {
  const service = await startService({ DATABASE_URL: TEST_DATABASE_URL, TRUSTED_PROXIES: "127.0.0.1,::1", LOG_LEVEL: "info", ...env }, { capture: true });
  children.push(service.child);
  return { url: service.url, child: service.child, output: () => service.output.join("\n") };
}

/** Calls a service instance as the merchant's server. */
function callAs(m: TestMerchant, base: string) {
  return async (p: string, body: unknown) => {
    const res = await fetch(base + p, {
      method: "POST",
      headers: { authorization: `Bearer ${m.key}`, "x-forwarded-for": m.ip, "content-type": "application/json", "idempotency-key": `t-${randomUUID()}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
}

describe("driver selection: Inngest when configured, else the embedded driver", () => {
  it("with INNGEST_DEV set: no embedded driver, /api/inngest serves 12 functions (one per registry entry), delivery.due is sent after commit", async () => {
    const sent: { deliveryId: string; visibleWhenSent: boolean; stateWhenSent: string | null }[] = [];
    const inngest = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        if (req.method === "POST" && req.url?.startsWith("/e/")) {
          const events = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { name: string; data: { deliveryId: string } }[];
          for (const e of events) {
            expect(e.name).toBe("sandpiper/delivery.due");
            const row = await db.delivery.findUnique({ where: { id: e.data.deliveryId } });
            sent.push({ deliveryId: e.data.deliveryId, visibleWhenSent: row !== null, stateWhenSent: row?.state ?? null });
          }
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ids: events.map(() => randomUUID()), status: 200 }));
          return;
        }
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((ok) => inngest.listen(0, "127.0.0.1", ok));
    closers.push(() => new Promise((ok) => inngest.close(() => ok())));
    const inngestUrl = `http://127.0.0.1:${(inngest.address() as AddressInfo).port}`;

    const service = await startLoggedService({ INNGEST_DEV: inngestUrl });
    const rx = await startReceiver();
    closers.push(rx.close);
    const m = await newMerchant();
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const api = callAs(m, service.url);
    const created = await api("/v1/payments", depositBody());
    expect(created.status).toBe(201);
    expect((await api(`/v1/sandbox/payments/${created.body.id}/complete`, { outcome: "SUCCEEDED" })).status).toBe(200);

    const delivery = await db.delivery.findFirstOrThrow({ where: { merchantId: m.merchant.id } });
    const announced = await eventually(async () => sent.find((s) => s.deliveryId === delivery.id));
    // Announced after commit: the row is visible when the event arrives. The suite's shared service (same
    // database, embedded driver polling every 200 ms) may already have delivered it, so SUCCEEDED is fine too.
    expect(announced).toMatchObject({ deliveryId: delivery.id, visibleWhenSent: true });
    expect(["PENDING", "SUCCEEDED"]).toContain(announced.stateWhenSent);

    const served = await fetch(`${service.url}/api/inngest`);
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ function_count: 12 });
    expect(service.output()).not.toContain("embedded job driver started");
  });

  it("without Inngest configuration the embedded driver starts", async () => {
    // Pointed at a database that does not exist: this extra driver must not claim (and, when the test
    // ends, abandon) deliveries of tests running meanwhile; its polls just fail and are logged.
    const absent = new URL(TEST_DATABASE_URL);
    absent.pathname = `${absent.pathname}_absent`;
    const service = await startLoggedService({ DATABASE_URL: absent.toString() });
    await eventually(async () => service.output().includes("embedded job driver started"), 30_000);
    expect(service.output()).toContain(
      '"jobs":["expire-due-payments","expire-checkout-sessions","deliver-due-callbacks","compact-payment-counts","prune-risk-counters","prune-request-log","prune-events","extend-seeded-rates","conclude-scenarios","store-handoffs"]',
    );
  });
});
