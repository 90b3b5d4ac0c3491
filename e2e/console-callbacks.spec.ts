import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { api, base, libTask, screenshot, signIn } from "./support/console";
import { assertPresent } from "../scripts/harness/present";

type Received = { headers: http.IncomingHttpHeaders; body: string };

/** A local callback receiver (the e2e service runs with CALLBACK_ALLOW_LOOPBACK=1); answers 200 to every POST. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sandpiper/callbacks`, received, close: () => new Promise((r) => server.close(r)) };
}

test("requeue delivers a NOT_CONFIGURED event to the local receiver once an address is set", async ({ page }) => {
  const m = await libTask("merchant");
  const created = await api(m.key, "POST", "/v1/payments", {
    reference: `cb-${Date.now()}`,
    amount: "42.00",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  expect((await api(m.key, "POST", `/v1/sandbox/payments/${created.body.id}/complete`, { outcome: "SUCCEEDED" })).body.status).toBe("SUCCEEDED");
  const receiver = await startReceiver();
  try {
    await signIn(page, m.owner, m.password);
    await page.goto(`${base()}/console/callbacks`);
    const [delivery] = await libTask<{ id: string; state: string }[]>("deliveries", { merchantId: m.merchantId });
    assertPresent(delivery, "delivery");
    expect(delivery?.state).toBe("NOT_CONFIGURED");
    const row = page.getByTestId(`delivery-${delivery.id}`);
    await expect(row.getByTestId("delivery-state")).toHaveText("NOT CONFIGURED");

    const form = page.getByRole("form", { name: "Set the callback address" });
    await form.getByLabel("New address").fill("https://10.0.0.5/hook");
    await form.getByRole("button", { name: "Save address" }).click();
    await expect(form.getByTestId("action-error")).toContainText("host must be a DNS name");
    await form.getByLabel("New address").fill(receiver.url);
    await form.getByRole("button", { name: "Save address" }).click();
    const secret = (await form.getByTestId("shown-once-signing-secret").textContent())!;
    expect(secret).toMatch(/^whsec_/);
    expect(receiver.received).toHaveLength(0);

    page.once("dialog", (d) => d.accept());
    await page.getByRole("button", { name: "Requeue all failed and not configured" }).click();
    await expect(page.getByTestId("action-ok").filter({ hasText: "Requeued 1 delivery;" })).toBeVisible();
    // The card states the rule this service applies (local mode here) and what the saved http address is.
    await expect(
      page.getByText(/because this service runs in local mode \(CALLBACK_ALLOW_LOOPBACK=1\), an http or https address on this machine/),
    ).toBeVisible();
    await expect(page.getByTestId("callback-url-note")).toHaveText("(http on this machine: allowed because this service runs in local mode.)");
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    await expect(row.getByTestId("delivery-state")).toHaveText("SUCCEEDED", { timeout: 15_000 });

    const [callback] = receiver.received;
    assertPresent(callback, "callback");
    const event = JSON.parse(callback.body);
    expect(event).toMatchObject({
      type: "payment.succeeded",
      data: { id: created.body.id, reference: created.body.reference, amount: "42.00", currency: "USD", environment: "sandbox" },
    });
    expect(callback?.headers["x-service-event-id"]).toBe(event.id);
    const timestamp = String(callback.headers["x-service-timestamp"]);
    expect(timestamp).toMatch(/^\d{10}$/);
    expect(callback?.headers["x-service-signature"]).toBe(createHmac("sha256", secret).update(`${timestamp}.${callback.body}`).digest("hex"));

    // A test event is signed the same way.
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(2);
    const test = receiver.received[1];
    assertPresent(test, "test");
    expect(test?.headers["x-service-signature"]).toBe(createHmac("sha256", secret).update(`${test.headers["x-service-timestamp"]}.${test.body}`).digest("hex"));
    await page.reload();
    await screenshot(page, "callbacks");
    await page.goto(`${base()}/console/callbacks/${delivery.id}`);
    await expect(page.getByRole("cell", { name: "200" })).toBeVisible();
    await screenshot(page, "delivery");
  } finally {
    await receiver.close();
  }
});

test("the signature debugger shows what a real delivery was signed with and says which part of a check differs; chaos mode shows a banner", async ({
  page,
}) => {
  const m = await libTask("merchant");
  const receiver = await startReceiver();
  try {
    await signIn(page, m.owner, m.password);
    await page.goto(`${base()}/console/callbacks`);
    const form = page.getByRole("form", { name: "Set the callback address" });
    await form.getByLabel("New address").fill(receiver.url);
    await form.getByRole("button", { name: "Save address" }).click();
    const secret = (await form.getByTestId("shown-once-signing-secret").textContent())!;
    const created = await api(m.key, "POST", "/v1/payments", {
      reference: `dbg-${Date.now()}`,
      amount: "77.10",
      currency: "USD",
      method: "GATEWAY",
      direction: "DEPOSIT",
    });
    await api(m.key, "POST", `/v1/sandbox/payments/${created.body.id}/complete`, { outcome: "SUCCEEDED" });
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const [callback] = receiver.received;
    assertPresent(callback, "callback");
    const timestamp = String(callback.headers["x-service-timestamp"]);
    const [delivery] = await libTask<{ id: string; state: string }[]>("deliveries", { merchantId: m.merchantId });
    assertPresent(delivery, "delivery");

    await page.goto(`${base()}/console/callbacks/${delivery.id}`);
    const attempt = page.getByTestId("signed-attempt-1");
    await expect(attempt).toContainText(`X-Service-Timestamp: ${timestamp}`);
    await expect(attempt).toContainText(`X-Service-Signature: ${callback.headers["x-service-signature"]}`);
    await expect(attempt.getByTestId("signed-text")).toHaveText(`${timestamp}.${callback.body}`);
    await expect(page.getByText(secret)).toHaveCount(0); // the secret is never shown

    // A receiver that re-serialised the body before verifying: the check names it.
    const check = page.getByRole("form", { name: "Check my verification" });
    const reserialised = JSON.stringify(JSON.parse(callback.body), null, 2);
    await check.getByLabel("Body your code verified").fill(reserialised);
    await check.getByLabel("Signature your code computed").fill(createHmac("sha256", secret).update(`${timestamp}.${reserialised}`).digest("hex"));
    await check.getByRole("button", { name: "Check" }).click();
    await expect(check.getByTestId("action-details")).toContainText("same JSON but not the same bytes");
    // Upper-case hex over the right bytes.
    await check.getByLabel("Body your code verified").fill(callback.body);
    const right = createHmac("sha256", secret).update(`${timestamp}.${callback.body}`).digest("hex");
    await check.getByLabel("Signature your code computed").fill(right.toUpperCase());
    await check.getByRole("button", { name: "Check" }).click();
    await expect(check.getByTestId("action-details")).toContainText("upper-case hex");
    await screenshot(page, "signature-debugger");
    await check.getByLabel("Signature your code computed").fill(right);
    await check.getByRole("button", { name: "Check" }).click();
    await expect(check.getByTestId("action-ok")).toContainText("Your signature is correct.");

    // Chaos mode: switched on with a reason, shown as a banner on every console page, switched off again.
    await page.goto(`${base()}/console/callbacks`);
    const chaos = page.getByRole("form", { name: "Switch chaos mode" });
    await chaos.getByLabel("Reason").fill("testing duplicate handling");
    await chaos.getByRole("button", { name: "Switch chaos mode on" }).click();
    await expect(chaos.getByTestId("action-ok")).toContainText("Chaos mode is on");
    await page.goto(`${base()}/console`);
    await expect(page.getByTestId("chaos-banner")).toContainText("Chaos mode is on for");
    await screenshot(page, "chaos-banner");
    await page.goto(`${base()}/console/callbacks`);
    await chaos.getByLabel("Reason").fill("done testing");
    await chaos.getByRole("button", { name: "Switch chaos mode off" }).click();
    await expect(chaos.getByTestId("action-ok")).toContainText("Chaos mode is off");
    await page.goto(`${base()}/console`);
    await expect(page.getByTestId("chaos-banner")).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

test("fast retries: switched on in the console with a reason, shown with the schedule, and on a failing delivery's next attempt", async ({ page }) => {
  const m = await libTask("merchant");
  await signIn(page, m.owner, m.password);
  await page.goto(`${base()}/console/callbacks`);
  // Nothing listens on port 9: every attempt fails and the delivery stays PENDING between its fast retries.
  const address = page.getByRole("form", { name: "Set the callback address" });
  await address.getByLabel("New address").fill("http://127.0.0.1:9/hook");
  await address.getByRole("button", { name: "Save address" }).click();
  await expect(address.getByTestId("shown-once-signing-secret")).toBeVisible();
  await expect(page.getByTestId("fast-retries-state")).toContainText("Fast retries are off: waits between attempts 30 s, 2 min, 5 min");

  const fast = page.getByRole("form", { name: "Switch fast retries" });
  await fast.getByLabel("Reason").fill("testing our receiver's retry handling");
  await fast.getByRole("button", { name: "Switch fast retries on" }).click();
  await expect(fast.getByTestId("action-ok")).toContainText("Fast retries are on");
  await page.reload();
  await expect(page.getByTestId("fast-retries-state")).toContainText("Fast retries are on: waits between attempts 0.5 s, 2 s, 5 s, 10 s, 20 s, 40 s, 60 s");
  expect((await api(m.key, "GET", "/v1/sandbox/settings")).body.fastRetries).toBe(true);

  const created = await api(m.key, "POST", "/v1/payments", {
    reference: `fast-${Date.now()}`,
    amount: "5.00",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  await api(m.key, "POST", `/v1/sandbox/payments/${created.body.id}/complete`, { outcome: "FAILED" });
  const [delivery] = await libTask<{ id: string; state: string }[]>("deliveries", { merchantId: m.merchantId });
  assertPresent(delivery, "delivery");
  await page.goto(`${base()}/console/callbacks/${delivery.id}`);
  await expect(page.getByText("(fast retries: waits 0.5 s to 60 s)")).toBeVisible();
  await screenshot(page, "delivery-fast-retries");
});
