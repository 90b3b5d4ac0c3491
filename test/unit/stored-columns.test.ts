import { describe, expect, it } from "vitest";
import { AuditSnapshot } from "@/lib/domain/audit";
import { parsePolled } from "@/components/console/use-polled";
import type { PricingProfileVersion, RequestLog, RiskRule } from "@/lib/platform/generated/prisma/client";
import { versionAsInput } from "@/lib/domain/pricing/profile-versions";
import { requestLogView } from "@/lib/application/request-log/read";
import { riskRuleView } from "@/lib/domain/risk/velocity-rules";
import { ConsoleCallbacksOverview, ConsoleDeliveryPage } from "@/lib/contract/schemas/console/views";
import { parseStored, StoredDataError } from "@/lib/contract/schemas/stored/parse";

// Text columns read as unions, and JSON the console reads, go through their schemas
// (docs/decisions/0153-stored-json-is-parsed-where-it-is-read.md): a value outside the union is refused with an error
// naming the column, never passed on under a type it does not have.

const rule = (over: Partial<RiskRule>): RiskRule => ({
  id: "00000000-0000-4000-8000-000000000001",
  merchantId: "00000000-0000-4000-8000-000000000002",
  kind: "COUNT",
  subject: "EMAIL",
  windowSeconds: 3600,
  maxCount: 3,
  maxAmountMinor: null,
  currency: null,
  active: true,
  reason: "test",
  createdById: null,
  createdAt: new Date("2026-11-27T08:00:00Z"),
  removedAt: null,
  ...over,
});

describe("text columns read through their enum schemas", () => {
  it("a risk rule's kind and subject: the view of a stored rule, or an error naming the column", () => {
    expect(riskRuleView(rule({}))).toMatchObject({ kind: "COUNT", subject: "EMAIL", subjectLabel: expect.any(String) });
    expect(() => riskRuleView(rule({ kind: "SPEED" }))).toThrow(StoredDataError);
    expect(() => riskRuleView(rule({ kind: "SPEED" }))).toThrow(/^stored risk_rules\.kind does not match its schema/);
    expect(() => riskRuleView(rule({ subject: "IBAN" }))).toThrow(/^stored risk_rules\.subject does not match its schema/);
  });

  it("a logged request's resource type", () => {
    const row = {
      id: "00000000-0000-4000-8000-000000000003",
      requestId: "00000000-0000-4000-8000-000000000004",
      merchantId: "00000000-0000-4000-8000-000000000002",
      createdAt: new Date("2026-11-27T08:00:00Z"),
      keyPrefix: "sk_sandbox_abc",
      method: "GET",
      path: "/v1/payments/x",
      query: null,
      status: 200,
      errorCode: null,
      idempotencyKey: null,
      replayed: false,
      latencyMs: 3,
      requestBody: null,
      responseBody: null,
      resourceType: "payment",
      resourceId: "00000000-0000-4000-8000-000000000005",
    } as unknown as RequestLog; // a stored row as Prisma reads it (members this test does not use left out)
    expect(requestLogView(row).resource).toEqual({ type: "payment", id: "00000000-0000-4000-8000-000000000005" });
    expect(() => requestLogView({ ...row, resourceType: "refund" })).toThrow(/^stored request_log\.resource_type does not match its schema/);
  });

  it("a pricing profile's currencies", () => {
    const profile = { merchantId: "m", currency: "USD", channel: "GATEWAY", direction: "DEPOSIT" } as const;
    const version = { chargeCurrency: "AED", settlementCurrency: "USD", commissionFixedMinor: null } as unknown as PricingProfileVersion; // the members that matter here
    expect(versionAsInput(profile, version)).toMatchObject({ currency: "USD", chargeCurrency: "AED", settlementCurrency: "USD" });
    expect(() => versionAsInput({ ...profile, currency: "XAU" }, version)).toThrow(/^stored pricing_profiles\.currency does not match its schema/);
    expect(() => versionAsInput(profile, { ...version, settlementCurrency: "usd" })).toThrow(
      /^stored pricing_profile_versions\.settlement_currency does not match its schema/,
    );
  });
});

describe("JSON the console reads through a schema", () => {
  it("the audit log's before and after: an object of members or nothing", () => {
    expect(parseStored(AuditSnapshot, { status: "ACTIVE" }, "audit_log.before")).toEqual({ status: "ACTIVE" });
    expect(parseStored(AuditSnapshot, null, "audit_log.after")).toBeNull();
    expect(() => parseStored(AuditSnapshot, "ACTIVE", "audit_log.before")).toThrow(/^stored audit_log\.before does not match its schema/);
  });

  it("a polled answer: the typed data, or an error naming the member the page cannot read", () => {
    const overview = {
      merchantId: null,
      days: ["2026-11-27"],
      outcomes: [{ day: "2026-11-27", firstAttempt: 1, afterRetries: 0, listener: 0, failed: 0, notConfigured: 0 }],
      latency: [{ day: "2026-11-27", delivered: 1, p50Ms: 8, p95Ms: 16 }],
      backlog: { pending: 0, byMerchant: [] },
      open: true,
    };
    expect(parsePolled(ConsoleCallbacksOverview, overview)).toEqual(overview);
    expect(() => parsePolled(ConsoleCallbacksOverview, { ...overview, latency: [{ day: "2026-11-27", delivered: "1", p50Ms: null, p95Ms: null }] })).toThrow(
      /cannot read \(latency\.0\.delivered: /,
    );
    expect(() => parsePolled(ConsoleDeliveryPage, { items: [], total: 0, page: 1, limit: 20, pages: 0 })).toThrow(/cannot read \(open: /);
  });
});
