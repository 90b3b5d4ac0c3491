import { expect, test } from "@playwright/test";

// The README's curl walk-through, as a merchant server would run it, plus the home page in Chromium.
const base = () => process.env.SANDPIPER_URL!;
const seed = () => JSON.parse(process.env.SANDPIPER_SEED!);

test("create, read, complete and list a deposit with the seeded key", async ({ request }) => {
  const headers = { authorization: `Bearer ${seed().keys.full}`, "content-type": "application/json" };
  const reference = `order-${Date.now()}`;
  const created = await request.post(`${base()}/v1/payments`, {
    headers: { ...headers, "idempotency-key": `walk-${reference}` },
    data: { reference, amount: "1123.52", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" },
  });
  expect(created.status()).toBe(201);
  const payment = await created.json();
  expect(payment.pricing.chargeCurrency).toBe("AED");
  const read = await request.get(`${base()}/v1/payments/${payment.id}`, { headers });
  expect((await read.json()).status).toBe("PENDING");
  const done = await request.post(`${base()}/v1/sandbox/payments/${payment.id}/complete`, {
    headers: { ...headers, "idempotency-key": `done-${reference}` },
    data: { outcome: "SUCCEEDED" },
  });
  expect((await done.json()).status).toBe("SUCCEEDED");
  const list = await request.get(`${base()}/v1/payments?search=${reference}`, { headers });
  expect((await list.json()).items.map((p: { id: string }) => p.id)).toEqual([payment.id]);
});

test("the home page renders in Chromium", async ({ page }) => {
  await page.goto(base());
  await expect(page.getByRole("heading", { name: "Sandpiper" })).toBeVisible();
});
