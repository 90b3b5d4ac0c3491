import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { writeAudit } from "@/lib/domain/audit";
import { normalizeIp } from "@/lib/domain/auth/ip";
import { assertMerchantAccess, assertOperator, auditActor, type ConsoleActor } from "@/lib/domain/auth/actor";
import { reasonField, text, uuidField } from "@/lib/contract/schemas/forms/fields";
import { lockMerchant } from "@/lib/domain/merchants/manage-merchants";
import type { Db, Tx } from "@/lib/platform/db";
import { apiError, fieldError } from "@/lib/contract/errors";
import type { AllowedIp, AllowedIpRequest, AllowedIpRequestState } from "@/lib/platform/generated/prisma/client";

// A merchant's server IP allow-list in the console (docs/api.md "Authentication" 6 and 7; docs/architecture.md "Console roles": MERCHANT
// users manage allow-list requests, operators run merchants). Operators add addresses directly; a MERCHANT user's
// address is a PENDING request until an operator approves it (the entry is created in the same transaction) or
// rejects it with a reason; the merchant's users may cancel a pending request and remove entries directly
// (narrowing access needs no review). Every function takes the merchant's row lock first, so checks and changes
// of one merchant's allow-list never interleave, and writes its audit row in the caller's transaction.

export const AllowedIpInput = z.object({ merchantId: uuidField, address: text(100, "address") });
export const AllowedIpRequestInput = z.object({ merchantId: uuidField, requestId: uuidField });
export const RejectAllowedIpRequestInput = AllowedIpRequestInput.extend({ reason: reasonField });

type AddressInput = { merchantId: string; address: string };
type RequestRef = { merchantId: string; requestId: string };

/**
 * The entered text as one exact, normalised address (IPv4-mapped IPv6 becomes IPv4; IPv6 in canonical short form).
 * @throws ApiError 400 VALIDATION_ERROR for CIDR ranges, wildcards, shorthand IPv4, host names, zones
 */
function exactAddress(entered: string): string {
  const address = normalizeIp(entered);
  if (!address) throw fieldError("address", "enter one exact IPv4 or IPv6 address (no CIDR ranges, wildcards or host names)");
  return address;
}

/**
 * Access check, normalisation, the merchant's row lock, and the duplicate checks shared by a direct add and a
 * request: an address already on the allow-list, or already waiting in a PENDING request, is refused.
 * @throws ApiError 404 NOT_FOUND, 400 VALIDATION_ERROR, 409 INVALID_STATE
 */
async function newAddress(tx: Tx, actor: ConsoleActor, input: AddressInput): Promise<string> {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  const address = exactAddress(input.address);
  await lockMerchant(tx, input.merchantId);
  const listed = await tx.allowedIp.findUnique({ where: { merchantId_address: { merchantId: input.merchantId, address } } });
  if (listed) throw apiError("INVALID_STATE", `${address} is already on the allow-list`);
  const pending = await tx.allowedIpRequest.findFirst({ where: { merchantId: input.merchantId, address, state: "PENDING" } });
  if (pending) throw apiError("INVALID_STATE", `${address} already has a request waiting for an operator's approval`);
  return address;
}

/** Inserts an allow-list entry (the caller writes the one audit row of its action). */
function insertEntry(tx: Tx, merchantId: string, address: string, now: Date): Promise<AllowedIp> {
  return tx.allowedIp.create({ data: { merchantId, address, createdAt: now } });
}

/**
 * Adds a server IP to a merchant's allow-list at once (operators only; MERCHANT users file a request with
 * requestAllowedIp). Audited as `allowed_ip.add`.
 * @param input.address as entered; stored normalised (exact IPv4/IPv6 only, docs/api.md "Authentication" 6)
 * @throws ApiError 403 FORBIDDEN (not an operator), 400 VALIDATION_ERROR (not one exact address), 404 NOT_FOUND,
 *   409 INVALID_STATE (already listed, or a request for it is pending: approve or reject that instead)
 */
export async function addAllowedIp(tx: Tx, actor: ConsoleActor, input: AddressInput, now = systemNow()): Promise<AllowedIp> {
  assertOperator(actor);
  const address = await newAddress(tx, actor, input);
  const row = await insertEntry(tx, input.merchantId, address, now);
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "allowed_ip.add",
      entity: "allowed_ip",
      entityId: row.id,
      merchantId: input.merchantId,
      after: { address, entered: input.address.trim() },
    },
    now,
  );
  return row;
}

/**
 * Files a PENDING allow-list request for the MERCHANT user's own merchant. The address is not allowed (store
 * payments and checkout sessions from it still get 403 IP_NOT_ALLOWED) until an operator approves the request.
 * Same validation and normalisation as addAllowedIp. Audited as `allowed_ip_request.create`.
 * @throws ApiError 403 FORBIDDEN (operators add directly), 404 NOT_FOUND (another merchant), 400 VALIDATION_ERROR,
 *   409 INVALID_STATE (already listed or already requested)
 */
export async function requestAllowedIp(tx: Tx, actor: ConsoleActor, input: AddressInput, now = systemNow()): Promise<AllowedIpRequest> {
  if (actor.role !== "MERCHANT") throw apiError("FORBIDDEN", "operators add addresses directly");
  const address = await newAddress(tx, actor, input);
  const row = await tx.allowedIpRequest.create({ data: { merchantId: input.merchantId, address, requestedById: actor.id, createdAt: now } });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "allowed_ip_request.create",
      entity: "allowed_ip_request",
      entityId: row.id,
      merchantId: input.merchantId,
      after: { address, entered: input.address.trim(), state: row.state },
    },
    now,
  );
  return row;
}

/**
 * Moves a PENDING request of the merchant to `state` (decided by `actor` at `now`), runs `apply` (which may add
 * audit members) and writes the `allowed_ip_request.<verb>` audit row. The caller has checked the role.
 * @throws ApiError 404 NOT_FOUND (unknown request, or another merchant's for a MERCHANT user), 409 INVALID_STATE
 */
async function decide(
  tx: Tx,
  actor: ConsoleActor,
  ref: RequestRef,
  to: { state: Exclude<AllowedIpRequestState, "PENDING">; verb: "approve" | "reject" | "cancel"; reason?: string },
  now: Date,
  apply: (request: AllowedIpRequest) => Promise<Record<string, unknown>> = async () => ({}),
): Promise<AllowedIpRequest> {
  assertMerchantAccess(actor, ref.merchantId, "allow-list request");
  await lockMerchant(tx, ref.merchantId);
  const request = await tx.allowedIpRequest.findFirst({ where: { id: ref.requestId, merchantId: ref.merchantId } });
  if (!request) throw apiError("NOT_FOUND", "allow-list request not found");
  if (request.state !== "PENDING") throw apiError("INVALID_STATE", `the request for ${request.address} is already ${request.state.toLowerCase()}`);
  const extra = await apply(request);
  const after = await tx.allowedIpRequest.update({
    where: { id: request.id },
    data: { state: to.state, decidedById: actor.id, decidedAt: now, reason: to.reason ?? null },
  });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: `allowed_ip_request.${to.verb}`,
      entity: "allowed_ip_request",
      entityId: request.id,
      merchantId: ref.merchantId,
      before: { address: request.address, state: request.state },
      after: { address: request.address, state: after.state, ...extra },
      reason: to.reason ?? null,
    },
    now,
  );
  return after;
}

/**
 * Approves a PENDING request (operators only): the address becomes an allow-list entry in the same transaction.
 * One audit row, `allowed_ip_request.approve`, whose `after` carries the new entry's id (`allowedIpId`).
 * @returns the APPROVED request and the new entry
 * @throws ApiError 403 FORBIDDEN, 404 NOT_FOUND, 409 INVALID_STATE (no longer pending, or the address is listed)
 */
export async function approveAllowedIpRequest(
  tx: Tx,
  actor: ConsoleActor,
  ref: RequestRef,
  now = systemNow(),
): Promise<{ request: AllowedIpRequest; entry: AllowedIp }> {
  assertOperator(actor);
  let entry: AllowedIp | undefined;
  const request = await decide(tx, actor, ref, { state: "APPROVED", verb: "approve" }, now, async (pending) => {
    const listed = await tx.allowedIp.findUnique({ where: { merchantId_address: { merchantId: ref.merchantId, address: pending.address } } });
    if (listed) throw apiError("INVALID_STATE", `${pending.address} is already on the allow-list; reject the request`);
    entry = await insertEntry(tx, ref.merchantId, pending.address, now);
    return { allowedIpId: entry.id };
  });
  if (!entry) throw new Error(`approving allow-list request ${ref.requestId} added no entry`);
  return { request, entry };
}

/**
 * Rejects a PENDING request with a reason (operators only); the reason is kept on the request, shown to the
 * merchant's users, and in the audit row `allowed_ip_request.reject`.
 * @throws ApiError 403 FORBIDDEN, 400 VALIDATION_ERROR (blank reason), 404 NOT_FOUND, 409 INVALID_STATE
 */
export async function rejectAllowedIpRequest(
  tx: Tx,
  actor: ConsoleActor,
  input: RequestRef & { reason: string },
  now = systemNow(),
): Promise<AllowedIpRequest> {
  assertOperator(actor);
  const reason = input.reason.trim();
  if (!reason) throw fieldError("reason", "give a reason for the rejection");
  return decide(tx, actor, input, { state: "REJECTED", verb: "reject", reason }, now);
}

/**
 * Cancels a PENDING request of the MERCHANT user's own merchant (any of its users). Audited as
 * `allowed_ip_request.cancel`.
 * @throws ApiError 403 FORBIDDEN (operators reject instead), 404 NOT_FOUND (unknown or another merchant's),
 *   409 INVALID_STATE (no longer pending)
 */
export async function cancelAllowedIpRequest(tx: Tx, actor: ConsoleActor, ref: RequestRef, now = systemNow()): Promise<AllowedIpRequest> {
  if (actor.role !== "MERCHANT") throw apiError("FORBIDDEN", "operators reject a request instead of cancelling it");
  return decide(tx, actor, ref, { state: "CANCELLED", verb: "cancel" }, now);
}

/**
 * Removes an address from the allow-list at once (operators, and MERCHANT users for their own merchant: narrowing
 * access needs no review). The last address of an ACTIVE merchant cannot be removed (activation requires one;
 * deactivate first). Audited as `allowed_ip.remove`.
 * @throws ApiError 404 NOT_FOUND, 409 INVALID_STATE
 */
export async function removeAllowedIp(tx: Tx, actor: ConsoleActor, input: { merchantId: string; allowedIpId: string }, now = systemNow()): Promise<void> {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  const merchant = await lockMerchant(tx, input.merchantId);
  const row = await tx.allowedIp.findFirst({ where: { id: input.allowedIpId, merchantId: input.merchantId } });
  if (!row) throw apiError("NOT_FOUND", "address not found");
  const count = await tx.allowedIp.count({ where: { merchantId: input.merchantId } });
  if (merchant.status === "ACTIVE" && count <= 1) {
    throw apiError("INVALID_STATE", "an active merchant keeps at least one server IP; add the new address first");
  }
  await tx.allowedIp.delete({ where: { id: row.id } });
  await writeAudit(
    tx,
    auditActor(actor),
    { action: "allowed_ip.remove", entity: "allowed_ip", entityId: row.id, merchantId: input.merchantId, before: { address: row.address } },
    now,
  );
}

/** An allow-list request as the console shows it (user names instead of ids). */
export type AllowedIpRequestView = {
  id: string;
  address: string;
  state: AllowedIpRequestState;
  requestedBy: string;
  createdAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
  reason: string | null;
};

const requestInclude = { requestedBy: { select: { username: true } }, decidedBy: { select: { username: true } } } as const;

/**
 * A merchant's allow-list requests for its page: every PENDING one (oldest first) and the `recent` latest decided
 * ones (APPROVED, REJECTED with the reason, CANCELLED; newest first).
 * @throws ApiError 404 NOT_FOUND (another merchant for a MERCHANT user)
 */
export async function listAllowedIpRequests(
  db: Db,
  actor: ConsoleActor,
  merchantId: string,
  recent = 10,
): Promise<{ pending: AllowedIpRequestView[]; decided: AllowedIpRequestView[] }> {
  assertMerchantAccess(actor, merchantId, "merchant");
  const [pending, decided] = await Promise.all([
    db.allowedIpRequest.findMany({ where: { merchantId, state: "PENDING" }, include: requestInclude, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    db.allowedIpRequest.findMany({
      where: { merchantId, state: { not: "PENDING" } },
      include: requestInclude,
      orderBy: [{ decidedAt: "desc" }, { id: "asc" }],
      take: recent,
    }),
  ]);
  const view = ({ requestedBy, decidedBy, ...r }: (typeof pending)[number]): AllowedIpRequestView => ({
    id: r.id,
    address: r.address,
    state: r.state,
    createdAt: r.createdAt,
    decidedAt: r.decidedAt,
    reason: r.reason,
    requestedBy: requestedBy.username,
    decidedBy: decidedBy?.username ?? null,
  });
  return { pending: pending.map(view), decided: decided.map(view) };
}
