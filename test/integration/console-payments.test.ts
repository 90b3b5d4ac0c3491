import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db, depositBody, newMerchant } from "../support/fixtures";
import { getWithSession, sessionOf } from "../support/console-http";
import { ConsolePaymentPage, ConsolePaymentView } from "@/lib/contract/schemas/console/views";
import { waitUntil } from "../../scripts/harness/wait";

// The console's payment list and detail over HTTP as the pages poll them (SWR):
// the filters of GET /v1/payments with the same rules, and the detail with snapshot, ledger entry, events and
// delivery attempts.

const OWNER_PASSWORD = "owner-password-1";
const json = async (path: string, cookie: string) => {
  const res = await getWithSession(path, cookie);
  return { status: res.status, body: await res.json() };
};

describe("console payments over HTTP", () => {
  it("the list filters like GET /v1/payments (status, method, direction, currency, search, Dubai from/to) and refuses bad filters", async () => {
    const m = await newMerchant();
    const cookie = await sessionOf(m.owner, OWNER_PASSWORD);
    const tag = randomUUID().slice(0, 8);
    const make = (over: Record<string, unknown>) => m.api("/v1/payments", { body: depositBody({ reference: `${tag}-${randomUUID().slice(0, 4)}`, ...over }) });
    const done = (await make({ currency: "EUR" })).body;
    await m.api(`/v1/sandbox/payments/${done.id}/complete`, { body: { outcome: "SUCCEEDED" } });
    const withdrawal = (await make({ method: "BANK_TRANSFER", direction: "WITHDRAWAL" })).body;
    const pending = (await make({})).body;
    await make({ reference: `other-${randomUUID()}` });

    const ids = async (query: string) => {
      const res = await json(`/api/console/payments?${query}`, cookie);
      expect(res.status, query).toBe(200);
      expect(ConsolePaymentPage.safeParse(res.body).error, `the page's schema reads ${query}`).toBeUndefined();
      const fromApi = await m.api(`/v1/payments?${query}`);
      // The same filter through the merchant API gives the same payments in the same order.
      expect(
        res.body.items.map((p: { id: string }) => p.id),
        query,
      ).toEqual(fromApi.body.items.map((p: { id: string }) => p.id));
      expect(res.body.total).toBe(fromApi.body.total);
      return res.body.items.map((p: { id: string }) => p.id);
    };
    expect(await ids(`search=${tag}`)).toEqual([pending.id, withdrawal.id, done.id]);
    expect(await ids(`search=${tag}&status=SUCCEEDED`)).toEqual([done.id]);
    expect(await ids(`search=${tag}&method=BANK_TRANSFER&direction=WITHDRAWAL`)).toEqual([withdrawal.id]);
    expect(await ids(`search=${tag}&currency=USD&status=PENDING`)).toEqual([pending.id]);
    const today = pending.pricing.rateDay as string;
    expect(await ids(`search=${tag}&from=${today}&to=${today}`)).toHaveLength(3);
    expect(await ids(`search=${tag}&to=2020-01-01`)).toEqual([]);
    expect(await ids(`search=${tag}&limit=2&page=2`)).toEqual([done.id]);

    const open = await json(`/api/console/payments?search=${tag}&status=SUCCEEDED`, cookie);
    expect(open.body.open, "nothing left to change: the page stops polling").toBe(false);
    expect((await json(`/api/console/payments?search=${tag}`, cookie)).body.open).toBe(true);
    for (const bad of ["status=DONE", "limit=101", "from=2026-13-01", "currency=JPY"]) {
      const res = await json(`/api/console/payments?${bad}`, cookie);
      expect([res.status, res.body.error?.code], bad).toEqual([400, "VALIDATION_ERROR"]);
    }
  });

  it("the detail carries the pricing snapshot, the ledger entry, and each event with its delivery attempts", async () => {
    const m = await newMerchant();
    // Port 9 (discard) on loopback: every attempt fails at once and is recorded. A path of its own: the service makes
    // deliveries to an address that refused a connection wait (docs/callbacks.md "An address that refuses connections").
    await db.merchant.update({
      where: { id: m.merchant.id },
      data: { callbackUrl: `http://127.0.0.1:9/hook/${randomUUID()}`, callbackSecret: "whsec_fixture" },
    });
    const cookie = await sessionOf(m.owner, OWNER_PASSWORD);
    const p = (await m.api("/v1/payments", { body: depositBody({ amount: "1123.52" }) })).body;
    await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "SUCCEEDED" } });

    const view = await waitUntil(
      async () => {
        const res = await json(`/api/console/payments/${p.id}`, cookie);
        return res.body.events?.[0]?.delivery?.attempts?.length > 0 && res.body;
      },
      { what: "a delivery attempt recorded on the payment's page" },
    );
    expect(ConsolePaymentView.safeParse(view).error, "the page's schema reads the detail").toBeUndefined();
    expect(view.payment).toMatchObject({ id: p.id, status: "SUCCEEDED", pricing: p.pricing, amount: "1123.52" });
    expect(view.ledger).toHaveLength(1);
    const sum = view.ledger[0].lines.reduce((total: bigint, l: { amount: string }) => total + BigInt(l.amount.replace(".", "")), 0n);
    expect(sum, "the entry shown balances").toBe(0n);
    expect(view.events.map((e: { type: string }) => e.type)).toEqual(["payment.succeeded"]);
    expect(view.events[0].delivery.attempts[0]).toMatchObject({ number: 1, statusCode: null, error: expect.any(String) });
    expect(view.open, "the failed delivery will be retried: keep polling").toBe(true);
  });
});
