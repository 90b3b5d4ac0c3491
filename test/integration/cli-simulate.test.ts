import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseUrl, db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { runCommand, type Run } from "../support/listener";
import { FAILURE_CODE_NAMES, FAILURE_CODES } from "@/lib/contract/schemas/api/failure-codes";

// `sandpiper simulate <helper> <id>` and `sandpiper scenarios list|add|add-standard|enable|disable|remove` (docs/guides/test-every-path.md
// "Testing your integration") run as a user runs them: the clone's bin/sandpiper.mjs in a folder outside the clone, with only the
// variables a shell gives, against the suite's service. Exit codes 0 done, 1 refused, 2 a usage mistake.

const root = path.resolve(__dirname, "../..");
const outside = fs.mkdtempSync(path.join(os.tmpdir(), "cli-simulate-"));

function sandpiper(m: TestMerchant, args: string[]): Promise<Run> {
  return runCommand(process.execPath, [path.join(root, "bin", "sandpiper.mjs"), ...args], {
    cwd: outside,
    env: { NODE_ENV: process.env.NODE_ENV, PATH: process.env.PATH, HOME: outside, SANDPIPER_API_URL: baseUrl(), SANDPIPER_API_KEY: m.key },
  });
}

describe("sandpiper simulate and sandpiper scenarios", () => {
  it("simulate fail and expire conclude payments through the helpers; refusals exit 1 with one line; mistakes exit 2", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const a = (await m.api("/v1/payments", { body: depositBody() })).body;
    const b = (await m.api("/v1/payments", { body: depositBody() })).body;

    const failed = await sandpiper(m, ["simulate", "fail", a.id]);
    expect([failed.code, failed.stdout.trim()], failed.out).toEqual([0, `Payment ${a.id} is now FAILED`]);
    expect((await db.payment.findUniqueOrThrow({ where: { id: a.id } })).status).toBe("FAILED");
    expect(await db.event.count({ where: { paymentId: a.id, type: "payment.failed" } })).toBe(1);

    const expired = await sandpiper(m, ["simulate", "expire", b.id, "--json"]);
    expect(expired.code, expired.out).toBe(0);
    expect(JSON.parse(expired.stdout)).toMatchObject({ id: b.id, status: "EXPIRED" });

    // The service refuses: a final payment (409), another merchant's id (404): exit 1, one line with the code.
    const again = await sandpiper(m, ["simulate", "succeed", a.id]);
    expect(again.code, again.out).toBe(1);
    expect(again.stderr.trim().split("\n")[0]).toMatch(/INVALID_STATE/);
    const foreign = await sandpiper(other, ["simulate", "succeed", b.id]);
    expect(foreign.code, foreign.out).toBe(1);
    expect(foreign.stderr).toMatch(/NOT_FOUND/);
    expect(again.out + foreign.out).not.toContain(m.key);

    for (const [args, message] of [
      [["simulate"], /a helper is required/],
      [["simulate", "explode", a.id], /unknown helper "explode"/],
      [["simulate", "fail", "not-a-uuid"], /is not a payment id/],
      [["simulate", "quote", a.id], /quote needs --amount/],
      [["scenarios", "purge"], /unknown command "purge"/],
    ] as const) {
      const run = await sandpiper(m, [...args]);
      expect(run.code, run.out).toBe(2);
      expect(run.stderr.trim().split("\n"), run.out).toEqual([expect.stringMatching(message)]);
    }
    for (const args of [
      ["simulate", "--help"],
      ["scenarios", "--help"],
      ["help", "simulate"],
    ]) {
      const run = await sandpiper(m, args);
      expect([run.code, run.stdout], args.join(" ")).toEqual([0, expect.stringMatching(/^Usage: sandpiper /)]);
    }
  }, 120_000);

  it('simulate fail --code fails a payment with a failure code (docs/api.md "Failure codes"); an unknown one is refused with the list', async () => {
    const m = await newMerchant();
    const p = (await m.api("/v1/payments", { body: depositBody() })).body;
    const message = FAILURE_CODES.insufficient_funds.message;

    const unknown = await sandpiper(m, ["simulate", "fail", p.id, "--code", "no_money"]);
    expect(unknown.code, unknown.out).toBe(1);
    expect(unknown.stderr).toMatch(/VALIDATION_ERROR/);
    expect(unknown.stderr).toContain(FAILURE_CODE_NAMES.join(", "));
    for (const [args, refusal] of [
      [["simulate", "succeed", p.id, "--code", "insufficient_funds"], /--code is for fail only/],
      [["simulate", "fail", p.id, "--code", " "], /--code needs a failure code/],
    ] as const) {
      const run = await sandpiper(m, [...args]);
      expect(run.code, run.out).toBe(2);
      expect(run.stderr.trim().split("\n"), run.out).toEqual([expect.stringMatching(refusal)]);
    }
    expect((await db.payment.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("PENDING");

    const failed = await sandpiper(m, ["simulate", "fail", p.id, "--code", "insufficient_funds"]);
    expect([failed.code, failed.stdout.trim()], failed.out).toEqual([0, `Payment ${p.id} is now FAILED: insufficient_funds (${message})`]);
    expect(await db.payment.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({ status: "FAILED", failureCode: "insufficient_funds" });
    expect((await m.api(`/v1/payments/${p.id}`)).body.failure).toEqual({ code: "insufficient_funds", message });
  }, 60_000);

  it("scenarios add-standard switches the standard set on; a 13.13 payment then fails by itself", async () => {
    const m = await newMerchant();
    const empty = await sandpiper(m, ["scenarios", "list"]);
    expect([empty.code, empty.stdout], empty.out).toEqual([0, expect.stringMatching(/No scenario rules yet/)]);
    const added = await sandpiper(m, ["scenarios", "add-standard"]);
    expect(added.code, added.out).toBe(0);
    expect(added.stdout).toMatch(/^ {2}1 {2}on {3}Amount 13\.13 fails {2}\[amount=13\.13\] -> FAILED/m);
    expect(added.stdout).toMatch(/Reference slow- succeeds after 30 s {2}\[referencePrefix=slow-\] -> SUCCEEDED after 30000 ms/);
    const p = (await m.api("/v1/payments", { body: depositBody({ amount: "13.13" }) })).body;
    expect(p.scenario).toMatchObject({ name: "Amount 13.13 fails", outcome: "FAILED" });
    await eventually(async () => (await m.api(`/v1/payments/${p.id}`)).body.status === "FAILED");
  }, 60_000);

  it("scenarios add, list, disable, enable and remove one rule through the API; a rule the service refuses exits 1 with its message", async () => {
    const m = await newMerchant();
    const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
    const added = await sandpiper(
      m,
      ["scenarios", "add", "--name", "late-eur-failure", "--amount", "99.99", "--currency", "eur", "--method", "GATEWAY"].concat([
        "--outcome",
        "FAILED",
        "--delay",
        "5s",
      ]),
    );
    expect(added.code, added.out).toBe(0);
    const id = UUID.exec(added.stdout)?.[0];
    expect(added.stdout.trim()).toBe(`Added scenario rule ${id}: late-eur-failure (on)`);
    const stored = await db.scenarioRule.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ merchantId: m.merchant.id, enabled: true, outcome: "FAILED", delayMs: 5000, deletedAt: null });
    const rule = (await m.api("/v1/sandbox/scenario-rules")).body.items[0];
    expect(rule.match).toEqual({ amount: "99.99", referencePrefix: null, method: "GATEWAY", direction: null, currency: "EUR" });

    const listed = await sandpiper(m, ["scenarios", "list"]);
    expect(listed.code, listed.out).toBe(0);
    expect(listed.stdout.trimEnd()).toBe(`  1  on   late-eur-failure  [amount=99.99 method=GATEWAY currency=EUR] -> FAILED after 5000 ms  ${id}`);

    const off = await sandpiper(m, ["scenarios", "disable", id!]);
    expect([off.code, off.stdout.trim()], off.out).toEqual([0, `Scenario rule ${id} (late-eur-failure) is now off`]);
    expect((await db.scenarioRule.findUniqueOrThrow({ where: { id } })).enabled).toBe(false);
    expect((await sandpiper(m, ["scenarios", "list"])).stdout).toMatch(/^ {2}1 {2}off {2}late-eur-failure/);
    const on = await sandpiper(m, ["scenarios", "enable", id!, "--json"]);
    expect(on.code, on.out).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ id, enabled: true });
    expect((await db.scenarioRule.findUniqueOrThrow({ where: { id } })).enabled).toBe(true);

    const removed = await sandpiper(m, ["scenarios", "remove", id!]);
    expect([removed.code, removed.stdout.trim()], removed.out).toEqual([0, `Removed scenario rule ${id}`]);
    const after = await sandpiper(m, ["scenarios", "list"]);
    expect(after.stdout, after.out).toMatch(/No scenario rules yet/);
    expect((await m.api("/v1/sandbox/scenario-rules")).body.total).toBe(0);

    // Off when asked; the service's refusals: a match without amount or reference prefix (400), a rule of another
    // merchant (404): exit 1 with the API's message.
    const disabled = await sandpiper(m, ["scenarios", "add", "--name", "ok-later", "--reference-prefix", "ok-", "--outcome", "SUCCEEDED", "--disabled"]);
    expect(disabled.stdout, disabled.out).toMatch(/: ok-later \(off\)$/m);
    const refused = await sandpiper(m, ["scenarios", "add", "--name", "no-match", "--currency", "EUR", "--outcome", "FAILED"]);
    expect(refused.code, refused.out).toBe(1);
    expect(refused.stderr.trim().split("\n"), refused.out).toEqual([
      expect.stringMatching(/the service answered 400 VALIDATION_ERROR: .*give amount or referencePrefix \(or both\)/),
    ]);
    const other = await newMerchant();
    const foreign = await sandpiper(other, ["scenarios", "remove", UUID.exec(disabled.stdout)![0]]);
    expect(foreign.code, foreign.out).toBe(1);
    expect(foreign.stderr).toMatch(/404 NOT_FOUND/);
    expect((await m.api("/v1/sandbox/scenario-rules")).body.total, "another merchant's remove changes nothing").toBe(1);
    for (const [args, message] of [
      [["scenarios", "add", "--amount", "1.00", "--outcome", "FAILED"], /a --name is required/],
      [["scenarios", "enable", "rule-1"], /"rule-1" is not a scenario rule id/],
    ] as const) {
      const run = await sandpiper(m, [...args]);
      expect([run.code, run.stderr.trim()], run.out).toEqual([2, expect.stringMatching(message)]);
    }
  }, 90_000);
});
