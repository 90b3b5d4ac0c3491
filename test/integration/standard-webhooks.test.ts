import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { baseUrl, db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { listen, runCommand, waitForLine } from "../support/listener";
import { docBlock } from "../support/readme";
import { startReceiver, type Received } from "../support/receiver";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { verifyCallback } from "@/clients/cli/src/verify";
import { listenerSecret } from "@/lib/contract/callbacks/listener-secret";
import { standardWebhooksSecret } from "@/lib/contract/callbacks/signing";
import { present } from "../../scripts/harness/present";

// Standard Webhooks headers beside the contract's, and rotating the callback secret with an overlap
// (docs/callbacks.md "Standard Webhooks", "Rotating the secret"): real deliveries from the running service and real
// listener forwards, verified with the `standardwebhooks` package (the maintained verifier merchants use) and with
// the contract's own check.

const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});
async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

function flat(r: Received): Record<string, string> {
  return Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
}

/** True when the `standardwebhooks` package verifies the request with `secret` (given exactly as printed). */
function standardVerifies(r: Received, secret: string): boolean {
  try {
    new Webhook(secret).verify(r.body.toString("utf8"), flat(r));
    return true;
  } catch {
    return false;
  }
}

async function concluded(m: TestMerchant, outcome: "SUCCEEDED" | "FAILED" = "SUCCEEDED") {
  const created = await m.api("/v1/payments", { body: depositBody() });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const done = await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome } });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return created.body.id as string;
}

/** `sandpiper listen --print-secret` with the merchant's key, as a CI script runs it. */
const printSecret = (m: TestMerchant) =>
  runCommand(process.execPath, [path.join(path.resolve(__dirname, "../.."), "bin", "sandpiper.mjs"), "listen", "--print-secret"], {
    cwd: os.tmpdir(),
    env: { NODE_ENV: process.env.NODE_ENV, PATH: process.env.PATH, HOME: os.tmpdir(), SANDPIPER_API_URL: baseUrl(), SANDPIPER_API_KEY: m.key },
  });

/** The listener forward of the payment's event as the receiver got it. */
async function forwardedTo(rx: Awaited<ReturnType<typeof startReceiver>>, paymentId: string): Promise<Received> {
  const event = await eventually(() => db.event.findFirst({ where: { paymentId } }), 20_000);
  return eventually(async () => rx.received.find((r) => flat(r)["webhook-id"] === event.id), 30_000);
}

/** The delivery of the payment's event as the receiver got it. */
async function deliveredFor(rx: Awaited<ReturnType<typeof startReceiver>>, paymentId: string): Promise<Received> {
  const event = await eventually(() => db.event.findFirst({ where: { paymentId } }), 20_000);
  return eventually(async () => rx.received.find((r) => flat(r)["x-service-event-id"] === event.id), 20_000);
}

describe("Standard Webhooks headers on every delivery", () => {
  it("a delivery verifies with the standardwebhooks package and the secret as shown, and with the contract's check", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    expect(secret, "new secrets read the same as a Standard Webhooks secret").toMatch(/^whsec_[A-Za-z0-9]{44}$/);
    const got = await deliveredFor(rx, await concluded(m));
    const h = flat(got);
    expect(h["webhook-id"]).toBe(h["x-service-event-id"]);
    expect(h["webhook-timestamp"]).toBe(h["x-service-timestamp"]);
    expect(h["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(standardVerifies(got, secret)).toBe(true);
    expect(verifyCallback(got.body, got.headers, secret)).toMatchObject({ ok: true });
    expect(standardVerifies(got, `whsec_${Buffer.alloc(33, 7).toString("base64")}`), "another key fails").toBe(false);
  });

  it("the README's Standard Webhooks receiver code, as written, verifies a real delivery and refuses an altered body", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const file = path.join(path.resolve(__dirname, "../.."), "tmp", `readme-verify-standard-${crypto.randomUUID()}.ts`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, docBlock("docs/guides/receive-and-verify-callbacks.md", "// verify-standard.ts"));
    process.env.SANDPIPER_CALLBACK_SECRET = secret;
    try {
      const { verifyStandard } = (await import(file)) as { verifyStandard: (body: string, headers: Record<string, string>) => { id: string } };
      const got = await deliveredFor(rx, await concluded(m));
      expect(verifyStandard(got.body.toString("utf8"), flat(got)).id).toBe(flat(got)["webhook-id"]);
      expect(() => verifyStandard(got.body.toString("utf8").replace("sandbox", "live"), flat(got))).toThrow(/signature/i);
    } finally {
      delete process.env.SANDPIPER_CALLBACK_SECRET;
      fs.rmSync(file, { force: true });
    }
  });

  it("a new key's listener forward verifies with the standardwebhooks package and the secret exactly as printed, one form only", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sw-listen-")), "state.json");
    const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile]);
    try {
      const secret = await run.secret;
      expect(secret, "whsec_ + base64 from the start").toMatch(/^whsec_[A-Za-z0-9]{44}$/);
      await waitForLine(run, /Ready: following/);
      expect(
        run.lines.filter((l) => /Standard Webhooks libraries take/.test(l)),
        "no second form",
      ).toEqual([]);
      const printed = await printSecret(m);
      expect([printed.code, printed.stdout, printed.stderr]).toEqual([0, `${secret}\n`, ""]);
      const got = await forwardedTo(rx, await concluded(m, "FAILED"));
      expect(standardVerifies(got, secret)).toBe(true);
      expect(verifyCallback(got.body, got.headers, secret)).toMatchObject({ ok: true });
    } finally {
      run.child.kill("SIGTERM");
      await run.exited;
    }
  }, 60_000);

  it("a key of the old form (from before, never rotated): the listener shows both forms and which library takes which; --print-secret prints the one standardwebhooks takes", async () => {
    const rx = await receiver();
    // An old-form secret is base64url: about one key in four has neither "-" nor "_" in it, and then reads the same in
    // both forms (the standardwebhooks package takes it too). The case the two forms exist for is a key whose secret
    // has one of them, as most do.
    let m = await newMerchant();
    for (let tries = 0; !/[-_]/.test(listenerSecret(m.key, 0).slice("whsec_".length)) && tries < 30; tries++) m = await newMerchant();
    await db.apiKey.update({ where: { id: m.keyId }, data: { listenerSecretGeneration: 0 } });
    const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sw-listen-")), "state.json");
    const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile]);
    try {
      const secret = await run.secret;
      expect(secret).toBe(listenerSecret(m.key, 0));
      const line = await waitForLine(run, /Standard Webhooks libraries take the same secret written as: /);
      const standard = /written as: (whsec_\S+) /.exec(line)![1];
      expect(standard).toBe(standardWebhooksSecret(secret));
      expect(line).toMatch(/the standardwebhooks package and the others base64-decode it; your own check of X-Service-Signature takes the form above, as text/);
      await waitForLine(run, /Ready: following/);
      const printed = await printSecret(m);
      expect([printed.code, printed.stdout]).toEqual([0, `${standard}\n`]);
      expect(printed.stderr).toContain(`your own check of X-Service-Signature takes this key's secret as text: ${secret}`);
      const got = await forwardedTo(rx, await concluded(m, "FAILED"));
      // The form as printed by --print-secret is what the package takes; the old form is what the contract's check takes.
      expect(standardVerifies(got, printed.stdout.trim())).toBe(true);
      expect(() => new Webhook(secret).verify(got.body.toString("utf8"), flat(got))).toThrow();
      expect(verifyCallback(got.body, got.headers, secret)).toMatchObject({ ok: true });
    } finally {
      run.child.kill("SIGTERM");
      await run.exited;
    }
  }, 60_000);
});

describe("rotating the callback secret with an overlap", () => {
  it("during the overlap a receiver holding either secret verifies every delivery; after it only the new one", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    const { secret: oldSecret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const before = await m.api("/v1/sandbox/callback-secret");
    expect(before.body).toEqual({ configured: true, overlapEndsAt: null });

    const idem = `rotate-${crypto.randomUUID()}`;
    const rotated = await m.api("/v1/sandbox/callback-secret/rotate", { body: { overlap: "2h" }, idempotencyKey: idem });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const newSecret: string = rotated.body.secret;
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9]{44}$/);
    expect(newSecret).not.toBe(oldSecret);
    const ends = Date.parse(rotated.body.overlapEndsAt);
    expect(Math.abs(ends - (Date.now() + 2 * 3600_000))).toBeLessThan(60_000);
    // A retried rotation with the same key rotates nothing and answers the same secret.
    const replay = await m.api("/v1/sandbox/callback-secret/rotate", { body: { overlap: "2h" }, idempotencyKey: idem });
    expect(replay.body.secret).toBe(newSecret);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect((await db.merchant.findUniqueOrThrow({ where: { id: m.merchant.id } })).callbackSecret).toBe(newSecret);
    expect((await m.api("/v1/sandbox/callback-secret")).body).toEqual({ configured: true, overlapEndsAt: rotated.body.overlapEndsAt });

    const during = await Promise.all([concluded(m), concluded(m, "FAILED")]);
    for (const paymentId of during) {
      const got = await deliveredFor(rx, paymentId);
      expect(standardVerifies(got, oldSecret), "old secret, Standard Webhooks").toBe(true);
      expect(standardVerifies(got, newSecret), "new secret, Standard Webhooks").toBe(true);
      expect(present(flat(got)["webhook-signature"], 'flat(got)["webhook-signature"]').split(" ")).toHaveLength(2);
      expect(verifyCallback(got.body, got.headers, oldSecret), "the contract's header keeps the old secret").toMatchObject({ ok: true });
    }

    const ended = await m.api("/v1/sandbox/callback-secret/end-overlap", { method: "POST" });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toEqual({ configured: true, overlapEndsAt: null });
    const got = await deliveredFor(rx, await concluded(m));
    expect(standardVerifies(got, newSecret)).toBe(true);
    expect(standardVerifies(got, oldSecret)).toBe(false);
    expect(verifyCallback(got.body, got.headers, newSecret)).toMatchObject({ ok: true });
    expect(verifyCallback(got.body, got.headers, oldSecret)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });

    const audit = await db.auditLog.findMany({
      where: { merchantId: m.merchant.id, action: { startsWith: "merchant.callback_secret" } },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((a) => a.action)).toEqual(["merchant.callback_secret_rotated", "merchant.callback_secret_overlap_ended"]);
    expect(JSON.stringify(audit)).not.toContain(newSecret.slice(6));
    expect(JSON.stringify(audit)).not.toContain(oldSecret.slice(6));
  }, 60_000);

  it("an overlap of 0s stops the old secret at once; bad overlaps and a merchant without an address change nothing", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    const noAddress = await m.api("/v1/sandbox/callback-secret/rotate", { body: {} });
    expect(noAddress.status).toBe(409);
    expect(noAddress.body.error.code).toBe("INVALID_STATE");
    expect(noAddress.body.error.message).toMatch(/set a callback address first/);

    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    for (const overlap of ["8d", "soon", "-1h"]) {
      const bad = await m.api("/v1/sandbox/callback-secret/rotate", { body: { overlap } });
      expect(bad.status, overlap).toBe(400);
      expect(bad.body.error.code).toBe("VALIDATION_ERROR");
      expect(bad.body.error.message).toMatch(/overlap/);
    }
    expect((await db.merchant.findUniqueOrThrow({ where: { id: m.merchant.id } })).callbackSecret, "nothing changed").toBe(secret);

    const rotated = await m.api("/v1/sandbox/callback-secret/rotate", { body: { overlap: "0s" } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.overlapEndsAt).toBeNull();
    const got = await deliveredFor(rx, await concluded(m));
    expect(standardVerifies(got, rotated.body.secret)).toBe(true);
    expect(standardVerifies(got, secret)).toBe(false);
    expect(verifyCallback(got.body, got.headers, rotated.body.secret)).toMatchObject({ ok: true });
  }, 60_000);

  it("an overlap that has run out signs with the new secret only", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    const { secret: oldSecret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const rotated = await m.api("/v1/sandbox/callback-secret/rotate", { body: { overlap: "1h" } });
    // The overlap's end, moved into the past as if the hour had gone by.
    await db.merchant.update({ where: { id: m.merchant.id }, data: { previousCallbackSecretUntil: new Date(Date.now() - 1000) } });
    expect((await m.api("/v1/sandbox/callback-secret")).body.overlapEndsAt).toBeNull();
    const got = await deliveredFor(rx, await concluded(m));
    expect(present(flat(got)["webhook-signature"], 'flat(got)["webhook-signature"]').split(" ")).toHaveLength(1);
    expect(standardVerifies(got, oldSecret)).toBe(false);
    expect(verifyCallback(got.body, got.headers, rotated.body.secret)).toMatchObject({ ok: true });
  }, 60_000);
});

describe("rotating the sandpiper listen secret", () => {
  it("a running listener switches within seconds; during the overlap either secret verifies, after it only the new one", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sw-rotate-")), "state.json");
    const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile]);
    const forwardOf = async (paymentId: string) => {
      const event = await eventually(() => db.event.findFirst({ where: { paymentId } }), 20_000);
      return eventually(async () => rx.received.find((r) => flat(r)["webhook-id"] === event.id), 30_000);
    };
    try {
      const oldSecret = await run.secret;
      expect(oldSecret).toBe(listenerSecret(m.key, 1));
      await waitForLine(run, /Ready: following/);
      const rotated = await m.api("/v1/sandbox/listener-secret/rotate", { body: { overlap: "1h" } });
      expect(rotated.status, rotated.text).toBe(200);
      const newSecret: string = rotated.body.secret;
      expect(newSecret).toBe(listenerSecret(m.key, 2));
      expect(newSecret).toMatch(/^whsec_[A-Za-z0-9]{44}$/);
      await waitForLine(run, new RegExp(`Listener secret rotated\\. Listener signing secret: ${newSecret} \\(the previous one also signs until`), 15_000);

      const during = await forwardOf(await concluded(m, "FAILED"));
      expect(verifyCallback(during.body, during.headers, oldSecret), "the contract's header keeps the old secret").toMatchObject({ ok: true });
      expect(standardVerifies(during, standardWebhooksSecret(oldSecret))).toBe(true);
      expect(standardVerifies(during, newSecret)).toBe(true);

      const ended = await m.api("/v1/sandbox/listener-secret/end-overlap", { method: "POST" });
      expect(ended.body).toEqual({ generation: 2, previousGeneration: null, overlapEndsAt: null });
      await waitForLine(run, /The previous listener secret no longer signs/, 15_000);
      const after = await forwardOf(await concluded(m));
      expect(verifyCallback(after.body, after.headers, newSecret)).toMatchObject({ ok: true });
      expect(verifyCallback(after.body, after.headers, oldSecret)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
      expect(standardVerifies(after, standardWebhooksSecret(oldSecret))).toBe(false);
      expect(standardVerifies(after, newSecret)).toBe(true);
      const audit = await db.auditLog.findMany({ where: { entityId: m.keyId }, orderBy: { createdAt: "asc" } });
      expect(audit.map((a) => a.action)).toEqual(["api_key.listener_secret_rotated", "api_key.listener_secret_overlap_ended"]);
    } finally {
      run.child.kill("SIGTERM");
      await run.exited;
    }
  }, 90_000);

  it("a listener started during an overlap signs with both from its first forward", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    const rotated = await m.api("/v1/sandbox/listener-secret/rotate", { body: { overlap: "2h" } });
    expect((await m.api("/v1/sandbox/listener-secret")).body).toEqual({ generation: 2, previousGeneration: 1, overlapEndsAt: rotated.body.overlapEndsAt });
    const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sw-rotate-")), "state.json");
    const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile]);
    try {
      expect(await run.secret, "the listener prints the new secret").toBe(rotated.body.secret);
      await waitForLine(run, /Ready: following/);
      const paymentId = await concluded(m);
      const event = await eventually(() => db.event.findFirst({ where: { paymentId } }), 20_000);
      const got = await eventually(async () => rx.received.find((r) => flat(r)["webhook-id"] === event.id), 30_000);
      expect(verifyCallback(got.body, got.headers, listenerSecret(m.key, 1))).toMatchObject({ ok: true });
      expect(standardVerifies(got, rotated.body.secret)).toBe(true);
    } finally {
      run.child.kill("SIGTERM");
      await run.exited;
    }
  }, 60_000);
});

describe("sandpiper callbacks", () => {
  it("rotates with an overlap, shows it, ends it; bad lines are usage errors (exit 2)", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const cli = (...args: string[]) =>
      runCommand(process.execPath, [path.join(path.resolve(__dirname, "../.."), "bin", "sandpiper.mjs"), "callbacks", ...args], {
        cwd: os.tmpdir(),
        env: { NODE_ENV: process.env.NODE_ENV, PATH: process.env.PATH, HOME: os.tmpdir(), SANDPIPER_API_URL: baseUrl(), SANDPIPER_API_KEY: m.key },
      });
    const rotated = await cli("rotate-secret", "--overlap", "1h");
    expect(rotated.code, rotated.out).toBe(0);
    const printed = /New callback secret \(shown once, also for Standard Webhooks libraries\): (whsec_[A-Za-z0-9]{44})/.exec(rotated.stdout)?.[1];
    expect(printed).toBe((await db.merchant.findUniqueOrThrow({ where: { id: m.merchant.id } })).callbackSecret);
    expect(rotated.stdout).not.toMatch(/An overlap was running/);
    expect(rotated.stdout).toMatch(/the replaced secret still signs X-Service-Signature/);
    // A second rotation during the overlap says that the secret before the replaced one stops.
    const again = await cli("rotate-secret", "--overlap", "1h");
    expect(again.stdout).toMatch(/An overlap was running: the secret before the one just replaced no longer signs/);
    const shown = await cli("secret");
    expect(shown.stdout).toMatch(/A rotation's overlap runs until 20\d\d-/);
    expect(shown.out).not.toMatch(/whsec_/);
    const ended = await cli("end-overlap");
    expect(ended.code, ended.out).toBe(0);
    expect(ended.stdout).toMatch(/Overlap ended: only the new secret signs from now on/);
    expect((await cli("end-overlap")).stdout).toMatch(/No overlap was running: nothing changed/);
    const bad = await cli("rotate", "--overlap", "1h");
    expect(bad.code).toBe(2);
    expect(bad.out).toMatch(/unknown command "rotate": use secret, rotate-secret or end-overlap/);
    expect((await cli("secret", "--overlap", "1h")).code).toBe(2);
    const listener = await cli("rotate-secret", "--listener", "--overlap", "0s");
    expect(listener.code, listener.out).toBe(0);
    expect(listener.stdout).toContain(
      `New listener secret (running listeners switch to it and print it too, also for Standard Webhooks libraries): ${listenerSecret(m.key, 2)}`,
    );
  }, 60_000);
});
