import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { auditOf, actorOf, inTx, newOperator, refusal } from "../support/console";
import { sessionBody } from "../support/checkout-sessions";
import { createConsoleUser, db, freshIp, newMerchant, type TestMerchant } from "../support/fixtures";
import { storeBody } from "../support/store";
import {
  addAllowedIp,
  approveAllowedIpRequest,
  cancelAllowedIpRequest,
  listAllowedIpRequests,
  rejectAllowedIpRequest,
  removeAllowedIp,
  requestAllowedIp,
} from "@/lib/domain/merchants/allow-list";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { activateMerchant, createMerchantFromConsole, getMerchant } from "@/lib/domain/merchants/manage-merchants";
import { overview } from "@/lib/domain/reports/overview";
import { present } from "../../scripts/harness/present";

// docs/architecture.md "Console roles": MERCHANT users manage allow-list requests, operators approve them. The allow-list gates
// POST /v1/store-payments and /v1/checkout-sessions (docs/api.md "Authentication" 6); the test service trusts loopback as
// a proxy, so X-Forwarded-For is the merchant server's source IP.

const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];

const request = (actor: ConsoleActor, m: TestMerchant, address: string) => inTx((tx) => requestAllowedIp(tx, actor, { merchantId: m.merchant.id, address }));
const ref = (m: TestMerchant, requestId: string) => ({ merchantId: m.merchant.id, requestId });
const entries = async (m: TestMerchant) =>
  (await db.allowedIp.findMany({ where: { merchantId: m.merchant.id }, orderBy: { createdAt: "asc" } })).map((r) => r.address);

const BAD_ADDRESSES = ["10.0.0.0/8", "2001:db8::/32", "192.168.1.*", "*", "127.1", "0x7f.0.0.1", "merchant.example.com", "fe80::1%eth0", "203.0.113.300", ""];

describe("console: allow-list requests", () => {
  it("a MERCHANT user's address is only a PENDING request: 403 IP_NOT_ALLOWED from it until an operator approves, then accepted; audited", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    const operator = await newOperator();
    const ip = freshIp();
    const fromIp = () => m.api("/v1/checkout-sessions", { body: sessionBody(), ip });

    const pending = await request(actorOf(m.owner), m, ` ::ffff:${ip} `);
    expect(pending).toMatchObject({ merchantId: m.merchant.id, address: ip, state: "PENDING", requestedById: m.owner.id, decidedById: null, decidedAt: null });
    expect(await entries(m)).toEqual([m.ip]);
    expect(errorOf(await fromIp())).toEqual([403, "IP_NOT_ALLOWED"]);

    const { request: approved, entry } = await inTx((tx) => approveAllowedIpRequest(tx, operator, ref(m, pending.id)));
    expect(approved).toMatchObject({ state: "APPROVED", decidedById: operator.id });
    expect(approved.decidedAt).not.toBeNull();
    expect(entry.address).toBe(ip);
    expect(await entries(m)).toEqual([m.ip, ip]);
    const created = await fromIp();
    expect(created.status).toBe(201);
    expect(created.body.state).toBe("AWAITING_AMOUNT");

    const trail = await auditOf(pending.id);
    expect(trail.map((a) => [a.action, a.actorId, a.merchantId])).toEqual([
      ["allowed_ip_request.create", m.owner.id, m.merchant.id],
      ["allowed_ip_request.approve", operator.id, m.merchant.id],
    ]);
    expect(present(trail?.[0], "trail?.[0]").after).toEqual({ address: ip, entered: `::ffff:${ip}`, state: "PENDING" });
    expect(present(trail?.[1], "trail?.[1]").before).toEqual({ address: ip, state: "PENDING" });
    expect(present(trail?.[1], "trail?.[1]").after).toEqual({ address: ip, state: "APPROVED", allowedIpId: entry.id });
    expect(await auditOf(entry.id), "one action, one audit row: the approval names the entry").toEqual([]);

    expect(await refusal(inTx((tx) => approveAllowedIpRequest(tx, operator, ref(m, pending.id))))).toEqual({
      code: "INVALID_STATE",
      message: `the request for ${ip} is already approved`,
    });
    expect(await entries(m)).toEqual([m.ip, ip]);
  });

  it("uses the direct add's validation; duplicates of an entry or a pending request are refused; an operator's own address is added at once", async () => {
    const m = await newMerchant();
    const user = actorOf(m.owner);
    const operator = await newOperator();
    const add = (address: string) => inTx((tx) => addAllowedIp(tx, operator, { merchantId: m.merchant.id, address }));
    for (const address of BAD_ADDRESSES) {
      for (const attempt of [() => request(user, m, address), () => add(address)]) {
        const refused = await refusal(attempt());
        expect(refused.code, address).toBe("VALIDATION_ERROR");
        expect(refused.message).toMatch(/no CIDR ranges, wildcards or host names/);
      }
    }

    expect(await refusal(request(user, m, m.ip))).toEqual({ code: "INVALID_STATE", message: `${m.ip} is already on the allow-list` });
    expect((await request(user, m, "2001:DB8:0:0:0:0:0:1")).address).toBe("2001:db8::1");
    const waiting = { code: "INVALID_STATE", message: "2001:db8::1 already has a request waiting for an operator's approval" };
    expect(await refusal(request(user, m, "2001:db8::1"))).toEqual(waiting);
    expect(await refusal(request(actorOf(m.approver), m, "2001:db8:0::1"))).toEqual(waiting);
    expect(await refusal(add("2001:db8::1"))).toEqual(waiting);
    // The database holds the same rules: one PENDING request per address, a reason for every rejection.
    await expect(db.allowedIpRequest.create({ data: { merchantId: m.merchant.id, address: "2001:db8::1", requestedById: m.owner.id } })).rejects.toThrow(
      /Unique constraint/,
    );
    await expect(db.allowedIpRequest.updateMany({ where: { merchantId: m.merchant.id }, data: { state: "REJECTED", decidedAt: new Date() } })).rejects.toThrow(
      /allowed_ip_requests_reject_reason/,
    );

    // The operator adds directly (allowed at once), and cannot file a request; a MERCHANT user cannot add directly.
    expect((await add(" ::ffff:203.0.113.7 ")).address).toBe("203.0.113.7");
    expect(errorOf(await m.api("/v1/store-payments", { body: storeBody(), ip: "203.0.113.7" }))[1]).not.toBe("IP_NOT_ALLOWED");
    expect(await refusal(add("203.0.113.7"))).toMatchObject({ code: "INVALID_STATE" });
    expect(await refusal(request(user, m, "203.0.113.7"))).toMatchObject({ code: "INVALID_STATE", message: "203.0.113.7 is already on the allow-list" });
    expect(await refusal(request(operator, m, "203.0.113.8"))).toMatchObject({ code: "FORBIDDEN" });
    expect(await refusal(inTx((tx) => addAllowedIp(tx, user, { merchantId: m.merchant.id, address: "203.0.113.8" })))).toMatchObject({ code: "FORBIDDEN" });

    expect(await entries(m)).toEqual([m.ip, "203.0.113.7"]);
    const audits = await db.auditLog.findMany({ where: { merchantId: m.merchant.id }, orderBy: { createdAt: "asc" } });
    expect(audits.map((a) => a.action)).toEqual(["allowed_ip_request.create", "allowed_ip.add"]);
    expect(present(audits?.[1], "audits?.[1]").after).toEqual({ address: "203.0.113.7", entered: "::ffff:203.0.113.7" });
  });

  it("a rejected request keeps the address off the allow-list and shows the operator's reason; a merchant user cancels a pending one", async () => {
    const m = await newMerchant();
    const operator = await newOperator();
    const ip = freshIp();
    const fromIp = () => m.api("/v1/store-payments", { body: storeBody(), ip });

    const first = await request(actorOf(m.owner), m, ip);
    expect(await refusal(inTx((tx) => rejectAllowedIpRequest(tx, operator, { ...ref(m, first.id), reason: "  " })))).toMatchObject({
      code: "VALIDATION_ERROR",
    });
    const rejected = await inTx((tx) => rejectAllowedIpRequest(tx, operator, { ...ref(m, first.id), reason: "not a fixed egress address" }));
    expect(rejected).toMatchObject({ state: "REJECTED", reason: "not a fixed egress address", decidedById: operator.id });
    expect(errorOf(await fromIp())).toEqual([403, "IP_NOT_ALLOWED"]);
    expect(await entries(m)).toEqual([m.ip]);
    const [, rejectAudit] = await auditOf(first.id);
    expect(rejectAudit).toMatchObject({
      action: "allowed_ip_request.reject",
      actorId: operator.id,
      reason: "not a fixed egress address",
      after: { state: "REJECTED" },
    });
    expect(await refusal(inTx((tx) => approveAllowedIpRequest(tx, operator, ref(m, first.id))))).toMatchObject({ code: "INVALID_STATE" });

    // The merchant's users see the decision with its reason; the address may be requested again.
    const listed = await listAllowedIpRequests(db, actorOf(m.approver), m.merchant.id);
    expect(listed.pending).toEqual([]);
    expect(listed.decided[0]).toMatchObject({
      id: first.id,
      state: "REJECTED",
      reason: "not a fixed egress address",
      requestedBy: m.owner.username,
      decidedBy: operator.username,
    });
    const second = await request(actorOf(m.owner), m, ip);

    // Only operators approve or reject; only the merchant's users cancel (any of them, not only the requester).
    for (const attempt of [
      () => inTx((tx) => approveAllowedIpRequest(tx, actorOf(m.owner), ref(m, second.id))),
      () => inTx((tx) => rejectAllowedIpRequest(tx, actorOf(m.approver), { ...ref(m, second.id), reason: "changed my mind" })),
      () => inTx((tx) => cancelAllowedIpRequest(tx, operator, ref(m, second.id))),
    ]) {
      expect(await refusal(attempt())).toMatchObject({ code: "FORBIDDEN" });
    }
    const cancelled = await inTx((tx) => cancelAllowedIpRequest(tx, actorOf(m.approver), ref(m, second.id)));
    expect(cancelled).toMatchObject({ state: "CANCELLED", decidedById: m.approver.id });
    expect(await refusal(inTx((tx) => cancelAllowedIpRequest(tx, actorOf(m.owner), ref(m, second.id))))).toMatchObject({
      code: "INVALID_STATE",
      message: `the request for ${ip} is already cancelled`,
    });
    expect((await auditOf(second.id)).map((a) => [a.action, a.actorId])).toEqual([
      ["allowed_ip_request.create", m.owner.id],
      ["allowed_ip_request.cancel", m.approver.id],
    ]);
    expect(errorOf(await fromIp())).toEqual([403, "IP_NOT_ALLOWED"]);

    // A third request, approved: store payments from the address are accepted.
    const third = await request(actorOf(m.owner), m, ip);
    await inTx((tx) => approveAllowedIpRequest(tx, operator, ref(m, third.id)));
    expect((await fromIp()).status).toBe(201);
  });

  it("a MERCHANT user never sees or acts on another merchant's requests (NOT_FOUND); counts are scoped", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const userB = actorOf(b.owner);
    const operator = await newOperator();
    const pendingA = await request(actorOf(a.owner), a, freshIp());
    const entryA = await db.allowedIp.findFirstOrThrow({ where: { merchantId: a.merchant.id } });

    const attempts = [
      () => listAllowedIpRequests(db, userB, a.merchant.id),
      () => request(userB, a, freshIp()),
      () => inTx((tx) => cancelAllowedIpRequest(tx, userB, ref(a, pendingA.id))),
      // B's own merchant id with A's request id: still not found.
      () => inTx((tx) => cancelAllowedIpRequest(tx, userB, ref(b, pendingA.id))),
      () => inTx((tx) => removeAllowedIp(tx, userB, { merchantId: a.merchant.id, allowedIpId: entryA.id })),
      // An operator naming the wrong merchant finds nothing either.
      () => inTx((tx) => approveAllowedIpRequest(tx, operator, ref(b, pendingA.id))),
    ];
    for (const attempt of attempts) expect(await refusal(attempt())).toMatchObject({ code: "NOT_FOUND" });
    expect((await db.allowedIpRequest.findUniqueOrThrow({ where: { id: pendingA.id } })).state).toBe("PENDING");
    expect(await db.allowedIpRequest.count({ where: { merchantId: a.merchant.id } })).toBe(1);
    expect(await entries(a)).toEqual([a.ip]);
    expect(await auditOf(pendingA.id)).toHaveLength(1);

    expect((await listAllowedIpRequests(db, userB, b.merchant.id)).pending).toEqual([]);
    expect((await overview(db, userB)).pendingAllowListRequests).toBe(0);
    expect((await overview(db, actorOf(a.approver))).pendingAllowListRequests).toBe(1);
    expect((await overview(db, operator)).pendingAllowListRequests).toBeGreaterThanOrEqual(1);
    expect((await getMerchant(db, operator, a.merchant.id)).pendingAllowListRequests).toBe(1);
  });

  it("activation counts approved entries only; a MERCHANT user removes an entry directly (an active merchant keeps one)", async () => {
    const operator = await newOperator();
    const created = await inTx((tx) =>
      createMerchantFromConsole(tx, operator, { name: `Req ${randomUUID().slice(0, 6)}`, enabledCurrencies: ["USD"], defaultCommissionBps: 0 }),
    );
    await db.merchant.update({ where: { id: created.id }, data: { callbackUrl: "https://merchant.example.com/hooks" } });
    const user = actorOf(
      await createConsoleUser(db, { username: `req-${randomUUID().slice(0, 8)}`, password: "merchant-password-1", role: "MERCHANT", merchantId: created.id }),
    );
    const m = { merchant: created } as TestMerchant;
    const activate = () => inTx((tx) => activateMerchant(tx, operator, { merchantId: created.id, reason: "live" }));

    const first = await request(user, m, "203.0.113.41");
    const refused = await refusal(activate());
    expect(refused).toMatchObject({ code: "INVALID_STATE" });
    expect(refused.message).toMatch(/at least one server IP address on the allow-list \(1 allow-list request waits for approval\)/);
    expect((await getMerchant(db, operator, created.id)).activationRefusal).toMatch(/1 allow-list request waits/);

    await inTx((tx) => approveAllowedIpRequest(tx, operator, ref(m, first.id)));
    expect((await activate()).status).toBe("ACTIVE");

    const only = await db.allowedIp.findFirstOrThrow({ where: { merchantId: created.id } });
    const remove = (allowedIpId: string) => inTx((tx) => removeAllowedIp(tx, user, { merchantId: created.id, allowedIpId }));
    expect((await refusal(remove(only.id))).message).toMatch(/at least one server IP/);
    const second = await request(user, m, "203.0.113.42");
    expect((await refusal(remove(only.id))).message).toMatch(/at least one server IP/);
    const { entry } = await inTx((tx) => approveAllowedIpRequest(tx, operator, ref(m, second.id)));
    await remove(only.id);
    expect(await entries(m)).toEqual(["203.0.113.42"]);
    const [removed] = await auditOf(only.id).then((rows) => rows.filter((r) => r.action === "allowed_ip.remove"));
    expect(removed).toMatchObject({ actorId: user.id, before: { address: "203.0.113.41" } });
    expect(entry.address).toBe("203.0.113.42");
  });
});
