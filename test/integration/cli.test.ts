import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { Dedicated } from "../support/dedicated";
import { listen, runCommand, waitForLine, type Run } from "../support/listener";
import { startReceiver } from "../support/receiver";
import { docBlock } from "../support/readme";
import { present } from "../../scripts/harness/present";

// The `sandpiper` command as a user meets it (docs/guides/command-line.md "The sandpiper command", docs/callbacks.md "The sandpiper
// command"): installed by the guide's lines into a temporary HOME, then run by name from a folder outside the
// clone against the built service on a database of its own, as the seeded sandbox merchant.

const root = path.resolve(__dirname, "../..");
const d = new Dedicated("cli");
const home = fs.mkdtempSync(path.join(os.tmpdir(), "cli-home-"));
const outside = fs.mkdtempSync(path.join(os.tmpdir(), "cli-work-"));
const bin = path.join(home, ".local", "bin");
let keys: { full: string; readOnly: string };
let merchantId: string;
let rx: Awaited<ReturnType<typeof startReceiver>>;

/** Runs `sandpiper <args>` by name (found on PATH in the temporary HOME) in the folder outside the clone. */
function sandpiper(args: string[], env: Record<string, string> = {}, cwd = outside): Promise<Run> {
  // Only what a shell gives: no variable of the test run reaches the command.
  return runCommand("sandpiper", args, {
    cwd,
    env: {
      NODE_ENV: process.env.NODE_ENV,
      PATH: `${bin}${path.delimiter}${process.env.PATH}`,
      HOME: home,
      SANDPIPER_API_URL: d.service.url,
      SANDPIPER_API_KEY: keys.full,
      ...env,
    },
  });
}

/** GET as the merchant's full key. */
async function get(p: string) {
  const res = await fetch(d.service.url + p, { headers: { authorization: `Bearer ${keys.full}` } });
  return { status: res.status, body: await res.json() };
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

beforeAll(async () => {
  await d.start({ CALLBACK_ALLOW_LOOPBACK: "1", DELIVERY_POLL_INTERVAL_MS: "200" });
  const { seed } = await import("../../scripts/db.mjs");
  const seeded = JSON.parse(await seed(d.url, ["--json"]));
  keys = seeded.keys;
  merchantId = seeded.merchantId;
  rx = await startReceiver();
  await setCallbackUrl(d.db, { merchantId, url: `${rx.origin}/hook` });
}, 180_000);
afterAll(async () => {
  await rx?.close();
  await d.stop();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe("installing sandpiper as docs/guides/command-line.md says", () => {
  it("links the command into $HOME/.local/bin without the registry; it then runs by name from any folder", () => {
    const block = docBlock("docs/guides/command-line.md", "# put sandpiper on the PATH");
    // npm_config_offline: were anything in the block to reach the registry, it would fail here.
    const run = spawnSync("bash", ["-e", "-c", block], { cwd: root, env: { ...process.env, HOME: home, npm_config_offline: "true" }, encoding: "utf8" });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`Linked: ${path.join(bin, "sandpiper")} -> ${path.join(root, "bin", "sandpiper.mjs")}`);
    expect(run.stdout).toMatch(/Usage: sandpiper <command>/);
    expect(fs.readlinkSync(path.join(bin, "sandpiper"))).toBe(path.join(root, "bin", "sandpiper.mjs"));
    // Run again: nothing changes; a file of that name that is not the link is left alone.
    const again = spawnSync(process.execPath, [path.join(root, "scripts", "cli-install.mjs")], { env: { ...process.env, HOME: home }, encoding: "utf8" });
    expect(again.stdout).toMatch(/^Already linked/);
    const other = path.join(home, "other-bin");
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, "sandpiper"), "#!/bin/sh\n");
    const refused = spawnSync(process.execPath, [path.join(root, "scripts", "cli-install.mjs"), other], { encoding: "utf8" });
    expect([refused.status, refused.stderr]).toEqual([1, expect.stringMatching(/exists and is not a link to this clone's command/)]);
  });

  it("every command and subcommand has --help (exit 0); usage mistakes exit 2 with one line", async () => {
    for (const args of [
      ["--help"],
      ["listen", "--help"],
      ["events", "--help"],
      ["events", "list", "--help"],
      ["events", "get", "-h"],
      ["events", "resend", "--help"],
      ["trigger", "--help"],
      ["help", "trigger"],
      ["clock", "--help"],
    ]) {
      const run = await sandpiper(args);
      expect([run.code, run.stdout], args.join(" ")).toEqual([0, expect.stringMatching(/^Usage: sandpiper /)]);
    }
    for (const [args, message] of [
      [["trigger"], /^sandpiper trigger: an event type is required/],
      [["trigger", "payment.refunded"], /unknown event type "payment\.refunded"/],
      [["events", "resend"], /the event id is required/],
      [["events", "list", "--limit", "0"], /--limit must be a whole number from 1 to 100/],
      [["listen", "--forward-to", "http://127.0.0.1:9/hook"], /an API key is required/],
      [["frobnicate"], /unknown command "frobnicate"/],
      [["clock", "advance"], /^sandpiper clock: advance needs a duration/],
      [["clock", "rewind"], /^sandpiper clock: unknown command "rewind"/],
    ] as const) {
      const run = await sandpiper([...args], args[0] === "listen" ? { SANDPIPER_API_KEY: "" } : {});
      expect(run.code, run.out).toBe(2);
      expect(run.stderr.trim().split("\n"), run.out).toEqual([expect.stringMatching(message)]);
    }
  }, 120_000);
});

describe("sandpiper against the service", () => {
  const triggered: Record<string, { paymentId: string; eventId: string }> = {};

  it("trigger payment.succeeded, payment.failed and payment.expired make a deposit, conclude it and print the payment and event ids", async () => {
    // payment.failed takes its key from ./.env in the folder it runs in.
    fs.writeFileSync(path.join(outside, ".env"), `SANDPIPER_API_KEY=${keys.full}\n`);
    for (const [type, status] of [
      ["payment.succeeded", "SUCCEEDED"],
      ["payment.failed", "FAILED"],
      ["payment.expired", "EXPIRED"],
    ] as const) {
      const run = await sandpiper(["trigger", type], type === "payment.failed" ? { SANDPIPER_API_KEY: "" } : {});
      expect(run.code, run.out).toBe(0);
      const paymentId = new RegExp(`^Payment (${UUID}) created: 10\\.00 USD GATEWAY deposit, reference sandpiper-trigger-`, "m").exec(run.stdout)?.[1];
      const eventId = new RegExp(`^Event ${type.replace(".", "\\.")} (${UUID}): delivered to your callback address`, "m").exec(run.stdout)?.[1];
      expect(paymentId && eventId, run.out).toBeTruthy();
      expect(run.stdout).toContain(`Payment ${paymentId} is now ${status}`);
      expect(run.out).not.toContain(keys.full);
      const event = await get(`/v1/events/${eventId}`);
      expect(event.body).toMatchObject({ id: eventId, type, data: { id: paymentId, status, amount: "10.00", currency: "USD", method: "GATEWAY" } });
      triggered[type] = { paymentId: paymentId!, eventId: eventId! };
    }
    fs.rmSync(path.join(outside, ".env"));
    expect(
      (await d.db.payment.findUniqueOrThrow({ where: { id: present(triggered?.["payment.expired"], 'triggered?.["payment.expired"]').paymentId } })).merchantId,
    ).toBe(merchantId);
  }, 120_000);

  it("events list, get and resend: the redelivery reaches a running listener and GET /v1/events/{id} as a new delivery", async () => {
    const { eventId, paymentId } = present(triggered["payment.succeeded"], "the triggered payment.succeeded");
    const list = await sandpiper(["events", "list", "--payment", paymentId]);
    expect(list.code, list.out).toBe(0);
    expect(list.stdout.split("\n")[0]).toMatch(/^CREATED\s+TYPE\s+EVENT ID\s+REFERENCE\s+AMOUNT\s+DELIVERY$/);
    expect(list.stdout).toMatch(new RegExp(`payment\\.succeeded\\s+${eventId}\\s+sandpiper-trigger-\\S+\\s+10\\.00 USD`));
    const json = await sandpiper(["events", "list", "--type", "payment.failed", "--limit", "5", "--json"]);
    expect(JSON.parse(json.stdout).items.map((e: { id: string }) => e.id)).toEqual([
      present(triggered["payment.failed"], 'triggered["payment.failed"]').eventId,
    ]);
    const one = await sandpiper(["events", "get", eventId]);
    expect(one.code, one.out).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ id: eventId, type: "payment.succeeded", delivery: { deliveries: [{ redelivery: false }] } });

    // A listener of the same merchant is running; the feed's position before the resend.
    const forwarded = await startReceiver();
    const listener = listen(
      ["--forward-to", `${forwarded.origin}/hook`, "--api-url", d.service.url, "--state-file", path.join(home, `state-${randomUUID()}.json`), "--from-now"],
      { SANDPIPER_API_KEY: keys.full },
    );
    await waitForLine(listener, /Ready: following/);
    const before = (await get("/v1/events/stream")).body.cursor as string;

    const resend = await sandpiper(["events", "resend", eventId]);
    expect(resend.code, resend.out).toBe(0);
    const [, redeliveryId, deliveryId] =
      new RegExp(
        `^Redelivery (${UUID}) of event ${eventId}\\n[^\\n]*running sandpiper listen[^\\n]*\\nThe configured callback address gets it as delivery (${UUID})`,
        "m",
      ).exec(resend.stdout) ?? [];
    expect(redeliveryId && deliveryId, resend.out).toBeTruthy();

    const read = await get(`/v1/events/${eventId}`);
    expect(read.body.delivery.deliveries).toHaveLength(2);
    expect(read.body.delivery.deliveries[1]).toMatchObject({ id: deliveryId, redelivery: true });
    const feed = await get(`/v1/events/stream?cursor=${before}`);
    expect(feed.body.items).toEqual([expect.objectContaining({ kind: "redelivery", eventId })]);
    await forwarded.waitFor(1, 20_000);
    expect(forwarded.received.map((r) => r.headers["x-service-event-id"])).toContain(eventId);
    await waitForLine(listener, new RegExp(`${eventId}.*\\[redelivery\\]`));
    // A second resend is a new redelivery (a fresh Idempotency-Key on every run).
    const second = await sandpiper(["events", "resend", eventId, "--json"]);
    expect(JSON.parse(second.stdout)).toMatchObject({ eventId, delivery: { state: "PENDING" } });
    expect(JSON.parse(second.stdout).id).not.toBe(redeliveryId);
    listener.child.kill("SIGTERM");
    expect(await listener.exited).toBe(0);
    await forwarded.close();
  }, 120_000);

  it("refusals exit 1 with the code, message and requestId, and never print the key or a listener secret", async () => {
    const missing = await sandpiper(["events", "get", randomUUID()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(new RegExp(`^sandpiper: the service answered 404 NOT_FOUND: [^,]+, requestId ${UUID}\\.$`));

    const badKey = "sk_sandbox_definitely-not-a-key";
    for (const args of [
      ["events", "list"],
      ["trigger", "payment.succeeded"],
      ["events", "resend", present(triggered["payment.failed"], 'triggered["payment.failed"]').eventId],
    ]) {
      const run = await sandpiper([...args, "--api-key", badKey]);
      expect(run.code, run.out).toBe(1);
      expect(run.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/^sandpiper: the service refused the API key \(401 INVALID_API_KEY: .*requestId .*\)\. Use a valid sandbox API key/),
      ]);
      expect(run.out).not.toContain(badKey);
    }

    const scoped = await sandpiper(["trigger", "payment.succeeded"], { SANDPIPER_API_KEY: keys.readOnly });
    expect(scoped.code, scoped.out).toBe(1);
    expect(scoped.stderr).toMatch(/403 INSUFFICIENT_SCOPE: .*requestId .*sandpiper trigger needs a key with the payments:create and sandbox:simulate scopes/);
    expect(scoped.out).not.toContain(keys.readOnly);

    const listenBad = await sandpiper(["listen", "--forward-to", "http://127.0.0.1:9/hook", "--state-file", path.join(home, "bad.json")], {
      SANDPIPER_API_KEY: badKey,
    });
    expect(listenBad.code, listenBad.out).toBe(1);
    expect(listenBad.out).toMatch(/refused the API key \(401 INVALID_API_KEY.*no listener secret was printed/);
    expect(listenBad.out).not.toMatch(/whsec_|Listener signing secret/);
    expect(listenBad.out).not.toContain(badKey);

    const down = await sandpiper(["events", "list", "--api-url", "http://127.0.0.1:5"]);
    expect([down.code, down.stderr.trim()]).toEqual([
      1,
      expect.stringMatching(/^sandpiper: cannot reach the service at http:\/\/127\.0\.0\.1:5 \(ECONNREFUSED\)\. Start it/),
    ]);
  }, 120_000);

  it("clock advance, show and reset move the merchant's sandbox time (docs/api.md \"Sandbox clock\"); a bad duration exits 1 with the service's message", async () => {
    const advanced = await sandpiper(["clock", "advance", "2h"]);
    expect(advanced.code, advanced.out).toBe(0);
    expect(advanced.stdout).toMatch(
      /^Sandbox clock: 2h ahead \(sandbox time .*, real time .*\)\nExpired now: (1 payment|\d+ payments), (1 checkout session|\d+ checkout sessions)\. Callback retries due now: \d+\./,
    );
    expect(JSON.parse((await sandpiper(["clock", "show", "--json"])).stdout)).toMatchObject({ offsetMs: 7_200_000, offset: "2h" });
    const bad = await sandpiper(["clock", "advance", "soon"]);
    expect(bad.code, bad.out).toBe(1);
    expect(bad.stderr).toMatch(/VALIDATION_ERROR: by: give a duration such as 90s/);
    const reset = await sandpiper(["clock", "reset"]);
    expect([reset.code, reset.stdout.trim()], reset.out).toEqual([0, expect.stringMatching(/^Sandbox clock: the real time/)]);
    expect((await d.db.merchant.findUniqueOrThrow({ where: { id: merchantId } })).clockOffsetMs).toBe(0n);
  }, 60_000);
});
