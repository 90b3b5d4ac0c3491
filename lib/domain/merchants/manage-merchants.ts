import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { writeAudit } from "@/lib/domain/audit";
import { assertMerchantAccess, assertOperator, auditActor, scopedMerchantId, type ConsoleActor } from "@/lib/domain/auth/actor";
import { checkbox, checkboxGroup, integer, reasonField, text, uuidField } from "@/lib/contract/schemas/forms/fields";
import { revokeKeysOf } from "@/lib/domain/keys/manage-keys";
import { IdRow, parseRows, type Db, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import type { Merchant } from "@/lib/platform/generated/prisma/client";
import { createMerchant } from "@/lib/domain/merchants/create-merchant";
import { CURRENCIES } from "@/lib/contract/money/currency";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { pageOf } from "@/lib/contract/pagination";

/** Customer members a merchant may require on `POST /v1/payments` (docs/api.md "Customer"). */
export const CUSTOMER_FIELDS = ["id", "email", "phone", "country", "username", "firstName", "lastName"] as const;

/** Acceptance periods are between 1 minute and 30 days. */
const minutes = integer(1, 43_200);

/** The merchant policy edited in the console. */
export const MerchantPolicyInput = z.object({
  merchantId: uuidField,
  name: text(120, "name"),
  enabledCurrencies: checkboxGroup(CURRENCIES).refine((c) => c.length > 0, { message: "enable at least one currency" }),
  bankTransferDepositMinutes: minutes,
  gatewayDepositMinutes: minutes,
  withdrawalApprovalMinutes: minutes,
  storeCheckoutMinutes: minutes,
  checkoutSessionMinutes: minutes,
  requiredCustomerFields: checkboxGroup(CUSTOMER_FIELDS),
  storeRequiresCountry: checkbox,
  amountEntryEnabled: checkbox,
  defaultCommissionBps: integer(0, 10_000),
  reason: reasonField,
});
export type MerchantPolicyInput = z.output<typeof MerchantPolicyInput>;

export const NewMerchantInput = z.object({
  name: text(120, "name"),
  enabledCurrencies: checkboxGroup(CURRENCIES).refine((c) => c.length > 0, { message: "enable at least one currency" }),
  defaultCommissionBps: integer(0, 10_000),
});

/** Writes the audit row of a change to merchant `merchantId` (entity "merchant"). */
export function auditMerchant(
  tx: Tx,
  actor: ConsoleActor,
  merchantId: string,
  change: { action: string; before?: unknown; after?: unknown; reason?: string | null },
  now: Date,
): Promise<void> {
  return writeAudit(tx, auditActor(actor), { ...change, entity: "merchant", entityId: merchantId, merchantId }, now);
}

/** The policy members of a merchant row as an audit record (never the callback secret). */
function policyOf(m: Merchant) {
  return {
    name: m.name,
    status: m.status,
    enabledCurrencies: m.enabledCurrencies,
    bankTransferDepositMinutes: m.bankTransferDepositMinutes,
    gatewayDepositMinutes: m.gatewayDepositMinutes,
    withdrawalApprovalMinutes: m.withdrawalApprovalMinutes,
    storeCheckoutMinutes: m.storeCheckoutMinutes,
    checkoutSessionMinutes: m.checkoutSessionMinutes,
    requiredCustomerFields: m.requiredCustomerFields,
    storeRequiresCountry: m.storeRequiresCountry,
    amountEntryEnabled: m.amountEntryEnabled,
    defaultCommissionBps: m.defaultCommissionBps,
    callbackUrl: m.callbackUrl,
  };
}

/**
 * Creates a merchant (operator only). It starts INACTIVE: activation needs server IPs and an https callback
 * address first (docs/api.md "Authentication" 7).
 */
export async function createMerchantFromConsole(tx: Tx, actor: ConsoleActor, input: z.output<typeof NewMerchantInput>, now = systemNow()): Promise<Merchant> {
  assertOperator(actor);
  const merchant = await createMerchant(tx, {
    name: input.name,
    status: "INACTIVE",
    enabledCurrencies: input.enabledCurrencies,
    defaultCommissionBps: input.defaultCommissionBps,
  });
  await auditMerchant(tx, actor, merchant.id, { action: "merchant.create", after: policyOf(merchant) }, now);
  return merchant;
}

/**
 * Changes a merchant's policy: name, enabled currencies, acceptance periods (minutes), required customer
 * fields, store country rule, amount-entry flag, fallback commission (operator only). New values apply to new
 * payments; existing payments keep their expiresAt and snapshot.
 * @throws ApiError 403 FORBIDDEN, 404 NOT_FOUND
 */
export async function updateMerchantPolicy(tx: Tx, actor: ConsoleActor, input: MerchantPolicyInput, now = systemNow()): Promise<Merchant> {
  assertOperator(actor);
  const before = await lockMerchant(tx, input.merchantId);
  const { merchantId, reason, ...policy } = input;
  const after = await tx.merchant.update({ where: { id: merchantId }, data: { ...policy, updatedAt: now } });
  await auditMerchant(tx, actor, merchantId, { action: "merchant.update_policy", before: policyOf(before), after: policyOf(after), reason }, now);
  return after;
}

/**
 * Locks a merchant's row (`FOR NO KEY UPDATE`) for the rest of the transaction and returns it. Every change of a
 * merchant, its allow-list or its allow-list requests takes this lock first. It never blocks the foreign-key check of a
 * create that inserts a payment of the merchant (`FOR UPDATE` would, and a create holding a limit counter would then
 * wait on it).
 * @throws ApiError 404 NOT_FOUND
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function lockMerchant(tx: Tx, id: string): Promise<Merchant> {
  const rows = parseRows(IdRow, await tx.$queryRaw<Record<string, unknown>[]>`SELECT id FROM merchants WHERE id = ${id}::uuid FOR NO KEY UPDATE`);
  if (rows.length === 0) throw apiError("NOT_FOUND", "merchant not found");
  return tx.merchant.findUniqueOrThrow({ where: { id } });
}

/**
 * Why a merchant cannot be activated, or null when it can (docs/api.md "Authentication" 7: activated only after server
 * IPs and an https callback address are registered; in local mode an http address on this machine counts too, as the
 * address policy allows it there). Only allow-list entries count (approved addresses); pending allow-list requests are
 * named in the refusal but do not count.
 * @param allowLoopback whether this process runs in local mode (lib/domain/callbacks/callback-config.ts callbackUrlPolicy):
 *   a saved http address passed the address policy as a loopback receiver, so it counts.
 */
export function activationRefusal(
  merchant: Pick<Merchant, "status" | "callbackUrl">,
  allowedIpCount: number,
  pendingRequests = 0,
  allowLoopback = false,
): string | null {
  if (merchant.status === "ACTIVE") return "the merchant is already active";
  const missing: string[] = [];
  if (allowedIpCount < 1) {
    const waiting = pendingRequests > 0 ? ` (${pendingRequests} allow-list request${pendingRequests === 1 ? " waits" : "s wait"} for approval)` : "";
    missing.push(`at least one server IP address on the allow-list${waiting}`);
  }
  if (!merchant.callbackUrl) missing.push("an https callback address");
  else if (!merchant.callbackUrl.startsWith("https://") && !allowLoopback)
    missing.push("an https callback address (the current one is http, which only local mode allows)");
  return missing.length ? `register ${missing.join(" and ")} first` : null;
}

/**
 * Activates a merchant (operator only) when activationRefusal allows it; audited.
 * @throws ApiError 403 FORBIDDEN, 404 NOT_FOUND, 409 INVALID_STATE with the refusal.
 */
export async function activateMerchant(
  tx: Tx,
  actor: ConsoleActor,
  input: { merchantId: string; reason: string },
  now = systemNow(),
  opts: { allowLoopback?: boolean } = {},
): Promise<Merchant> {
  assertOperator(actor);
  const before = await lockMerchant(tx, input.merchantId);
  const [ips, pending] = await Promise.all([
    tx.allowedIp.count({ where: { merchantId: input.merchantId } }),
    tx.allowedIpRequest.count({ where: { merchantId: input.merchantId, state: "PENDING" } }),
  ]);
  const refusal = activationRefusal(before, ips, pending, opts.allowLoopback);
  if (refusal) throw apiError("INVALID_STATE", `cannot activate: ${refusal}`);
  const after = await tx.merchant.update({ where: { id: input.merchantId }, data: { status: "ACTIVE", updatedAt: now } });
  await auditMerchant(
    tx,
    actor,
    after.id,
    { action: "merchant.activate", before: { status: before.status }, after: { status: after.status }, reason: input.reason },
    now,
  );
  return after;
}

/**
 * Deactivates a merchant and revokes all its API keys (docs/api.md "Authentication" 5: "Deactivating the merchant ...
 * revokes the related keys"); audited with the revoked key ids. A later activation does not bring keys back.
 * @throws ApiError 403 FORBIDDEN, 404 NOT_FOUND, 409 INVALID_STATE when already inactive.
 */
export async function deactivateMerchant(tx: Tx, actor: ConsoleActor, input: { merchantId: string; reason: string }, now = systemNow()): Promise<Merchant> {
  assertOperator(actor);
  const before = await lockMerchant(tx, input.merchantId);
  if (before.status === "INACTIVE") throw apiError("INVALID_STATE", "the merchant is already inactive");
  const revoked = await revokeKeysOf(tx, { merchantId: input.merchantId }, now);
  const after = await tx.merchant.update({ where: { id: input.merchantId }, data: { status: "INACTIVE", updatedAt: now } });
  await auditMerchant(
    tx,
    actor,
    after.id,
    {
      action: "merchant.deactivate",
      before: { status: before.status },
      after: { status: after.status, revokedApiKeys: revoked },
      reason: input.reason,
    },
    now,
  );
  return after;
}

/** Counts only the allow-list requests still waiting for an operator. */
const PENDING_REQUESTS = { where: { state: "PENDING" as const } };

/** Merchants for lists and pickers (a MERCHANT user sees only its own), with allow-list, pending request and key counts. */
export async function listMerchants(db: Db, actor: ConsoleActor, q: { page: number; limit: number }) {
  const id = scopedMerchantId(actor);
  const where = id ? { id } : {};
  const [total, rows] = await Promise.all([
    db.merchant.count({ where }),
    db.merchant.findMany({
      where,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      skip: (q.page - 1) * q.limit,
      take: q.limit,
      include: { _count: { select: { allowedIps: true, allowedIpRequests: PENDING_REQUESTS, apiKeys: { where: { revokedAt: null } } } } },
    }),
  ]);
  return pageOf(rows, total, q);
}

/** Every merchant's id and name, by name (operators' pickers). */
export async function merchantOptions(db: Db): Promise<{ id: string; name: string }[]> {
  return db.merchant.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
}

/**
 * One merchant with its allow-list (approved entries), the number of pending allow-list requests and its console
 * users (the requests themselves: lib/domain/merchants/allow-list.ts listAllowedIpRequests).
 * @throws ApiError 404 NOT_FOUND (unknown id, or another merchant for a MERCHANT user)
 */
export async function getMerchant(db: Db, actor: ConsoleActor, id: string, opts: { allowLoopback?: boolean } = {}) {
  if (!isUuid(id)) throw apiError("NOT_FOUND", "merchant not found");
  assertMerchantAccess(actor, id, "merchant");
  const merchant = await db.merchant.findUnique({
    where: { id },
    include: {
      allowedIps: { orderBy: { createdAt: "asc" } },
      users: { orderBy: { username: "asc" }, select: { id: true, username: true, role: true, active: true } },
      _count: { select: { allowedIpRequests: PENDING_REQUESTS } },
    },
  });
  if (!merchant) throw apiError("NOT_FOUND", "merchant not found");
  const { callbackSecret: _secret, previousCallbackSecret: _previous, _count, ...safe } = merchant;
  return {
    ...safe,
    hasCallbackSecret: !!_secret,
    pendingAllowListRequests: _count.allowedIpRequests,
    activationRefusal: activationRefusal(merchant, merchant.allowedIps.length, _count.allowedIpRequests, opts.allowLoopback),
  };
}
