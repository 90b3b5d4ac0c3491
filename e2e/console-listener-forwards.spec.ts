import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import { listenerSecret } from "../lib/contract/callbacks/listener-secret";
import { streamForwardToken } from "../test/support/stream";
import { api, base, libTask, signIn } from "./support/console";

// Listener forwards in the console (docs/callbacks.md "Forwards on the service"): an event that a sandpiper listen
// process delivered shows its forward on the event's delivery page, and the overview raises no false alarm for it.

test("a listener-delivered event: its forward on the delivery page, and no 'needing attention' on the overview", async ({ page }) => {
  const m = await libTask("merchant");
  const created = await api(m.key, "POST", "/v1/payments", {
    reference: `lf-${Date.now()}`,
    amount: "10.00",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  expect(created.status).toBe(201);
  expect((await api(m.key, "POST", `/v1/sandbox/payments/${created.body.id}/complete`, { outcome: "SUCCEEDED" })).status).toBe(200);
  const events = await api(m.key, "GET", `/v1/events?paymentId=${created.body.id}`);
  const eventId: string = events.body.items[0].id;
  const attempt = (n: number, statusCode: number | null) => ({
    eventId,
    forwardId: "2c1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a11",
    cursor: "5",
    kind: "event",
    attempt: n,
    startedAt: new Date().toISOString(),
    durationMs: 4,
    statusCode,
    error: statusCode === null ? "ECONNREFUSED" : null,
    forwardTo: "http://localhost:4000/hook",
    timestamp: String(Math.floor(Date.now() / 1000)),
    signature: "ab".repeat(32),
    responseSnippet: statusCode === 200 ? '{"received":true}' : null,
    nextAttemptAt: statusCode === 200 ? null : new Date(Date.now() + 1000).toISOString(),
  });
  const forwardToken = await streamForwardToken(base(), m.key);
  const recorded = await api(m.key, "POST", "/v1/events/forwards", { forwardToken, forwards: [attempt(1, null), attempt(2, 200)] });
  expect(recorded.body).toEqual({ recorded: 2, duplicates: 0, unknownEvents: [], refused: [] });

  await signIn(page, m.owner, m.password);
  const figure = page.getByRole("link", { name: /Callbacks needing attention/ });
  await expect(figure).toContainText("0");
  await expect(figure).toContainText("1 more received through sandpiper listen");

  const [delivery] = await libTask("deliveries", { merchantId: m.merchantId });
  await page.goto(`${base()}/console/callbacks/${delivery.id}`);
  const rows = page.getByTestId("listener-forward");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("ECONNREFUSED");
  await expect(rows.nth(1)).toContainText("200");
  await expect(rows.nth(1)).toContainText("ab".repeat(32).slice(0, 10));

  // The signature debugger for a forward: checked against the listener secret of the key that reported it.
  const check = page.getByRole("form", { name: "Check the verification of a listener forward" });
  const timestamp = await check.getByLabel("Timestamp your code used").inputValue();
  const body = await check.getByLabel("Body your code verified").inputValue();
  const sign = (secret: string) => createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  await check.getByLabel("Signature your code computed").fill(sign(listenerSecret(m.key, 1)));
  await check.getByRole("button", { name: "Check" }).click();
  await expect(check.getByTestId("action-ok")).toContainText("Your signature is correct.");
  await expect(check.getByTestId("action-details")).toContainText(`the sandpiper listen secret of API key ${m.key.slice(0, 12)}`);
  await check.getByLabel("Signature your code computed").fill(sign(listenerSecret(m.key, 1)).toUpperCase());
  await check.getByRole("button", { name: "Check" }).click();
  await expect(check.getByTestId("action-details")).toContainText("upper-case hex");
});
