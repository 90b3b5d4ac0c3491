import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { writeAudit } from "@/lib/domain/audit";
import { assertMerchantAccess, auditActor, merchantScope, type ConsoleActor } from "@/lib/domain/auth/actor";
import { checkbox, integer, reasonField, text, uuidField } from "@/lib/contract/schemas/forms/fields";
import { auditMerchant } from "@/lib/domain/merchants/manage-merchants";
import { parseRows, type Db, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { attemptDeliveryNow, DELIVERY_STATES, getDelivery, listDeliveries, requeueDeliveries, sendTestEvent } from "@/lib/domain/callbacks/deliveries";
import { switchFastRetries } from "@/lib/domain/callbacks/fast-retries";
import { endCallbackSecretOverlap, listenerSecretStateOf, parseOverlap, rotateCallbackSecret, signingSecrets } from "@/lib/domain/callbacks/secret-rotation";
import { listenerSecretFromKeyHash } from "@/lib/contract/callbacks/listener-secret";
import { ChaosModeRow } from "@/lib/domain/events/stream";
import { diagnoseSignature, type SignatureDiagnosis } from "@/lib/domain/callbacks/signature-check";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { isValidDay } from "@/lib/contract/money/dubai";

export const CallbackUrlInput = z.object({ merchantId: uuidField, url: text(2048, "address") });

/**
 * Sets a merchant's callback address (docs/callbacks.md: address policy of lib/domain/callbacks/url-policy.ts; a new secret on
 * every change, shown only now). MERCHANT users for their own merchant, operators for any. Audited with the old
 * and new address, never the secret.
 * @returns the new secret (show it once).
 * @throws ApiError 400 VALIDATION_ERROR "callbackUrl: <policy reason>", 404 NOT_FOUND
 */
export async function configureCallback(tx: Tx, actor: ConsoleActor, input: { merchantId: string; url: string }, now = systemNow()): Promise<string> {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  const before = await tx.merchant.findUnique({ where: { id: input.merchantId }, select: { callbackUrl: true } });
  if (!before) throw apiError("NOT_FOUND", "merchant not found");
  const { secret } = await setCallbackUrl(tx, { merchantId: input.merchantId, url: input.url });
  const after = await tx.merchant.findUniqueOrThrow({ where: { id: input.merchantId }, select: { callbackUrl: true } });
  await auditMerchant(
    tx,
    actor,
    input.merchantId,
    {
      action: "merchant.callback_url",
      before: { callbackUrl: before.callbackUrl },
      after: { callbackUrl: after.callbackUrl, secretRotated: true },
    },
    now,
  );
  return secret;
}

/**
 * Requeues FAILED and NOT_CONFIGURED deliveries: the listed ones, or all in scope (docs/callbacks.md: "can be requeued
 * from the console after an address is set"). A MERCHANT user reaches only its merchant's deliveries; an operator
 * all, or one merchant's when `merchantId` is given. A listed delivery outside that scope (another merchant's, or
 * unknown) is refused as NOT_FOUND, like every other console record. Audited with the count when anything was
 * requeued; a requeue that changed nothing writes no audit row.
 * @returns how many deliveries became PENDING (deliveries of merchants without an address stay as they are).
 * @throws ApiError 404 NOT_FOUND for a listed delivery the actor cannot see.
 */
export async function requeueFromConsole(
  tx: Tx,
  actor: ConsoleActor,
  input: { merchantId?: string; deliveryIds?: string[] },
  now = systemNow(),
): Promise<number> {
  const scope = merchantScope(actor) ?? input.merchantId ?? null;
  if (input.deliveryIds) {
    const ids = [...new Set(input.deliveryIds)];
    const visible =
      ids.every((id) => isUuid(id)) && (await tx.delivery.count({ where: { id: { in: ids }, ...(scope ? { merchantId: scope } : {}) } })) === ids.length;
    if (!visible) throw apiError("NOT_FOUND", "delivery not found");
  }
  const count = await requeueDeliveries(tx, { merchantId: scope, deliveryIds: input.deliveryIds, now });
  if (count === 0) return 0;
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: input.deliveryIds ? "delivery.requeue" : "delivery.requeue_all",
      entity: "delivery",
      entityId: input.deliveryIds?.length === 1 ? input.deliveryIds[0] : null,
      merchantId: scope,
      after: { requeued: count, ...(input.deliveryIds ? { deliveryIds: input.deliveryIds } : {}) },
    },
    now,
  );
  return count;
}

/**
 * "Attempt now" on a PENDING delivery's console page: its next attempt is sent at once, even while its address is known
 * to refuse connections (lib/domain/callbacks/deliveries.ts `attemptDeliveryNow`; docs/callbacks.md "An address that
 * refuses connections"). Same scope as a requeue: a MERCHANT user its merchant's deliveries, an operator all. Audited.
 * @returns the delivery as it is now (PENDING, due now)
 * @throws ApiError 404 NOT_FOUND for a delivery the actor cannot see; 409 INVALID_STATE for one that is not PENDING
 */
export async function attemptNowFromConsole(tx: Tx, actor: ConsoleActor, input: { deliveryId: string }, now = systemNow()) {
  const scope = merchantScope(actor);
  const found = isUuid(input.deliveryId)
    ? await tx.delivery.findFirst({ where: { id: input.deliveryId, ...(scope ? { merchantId: scope } : {}) }, select: { merchantId: true } })
    : null;
  if (!found) throw apiError("NOT_FOUND", "delivery not found");
  const delivery = await attemptDeliveryNow(tx, { merchantId: found.merchantId, deliveryId: input.deliveryId });
  await writeAudit(
    tx,
    auditActor(actor),
    { action: "delivery.attempt_now", entity: "delivery", entityId: input.deliveryId, merchantId: found.merchantId, after: { eventId: delivery.eventId } },
    now,
  );
  return delivery;
}

/**
 * Sends a signed test event to the merchant's callback address (lib/domain/callbacks/deliveries.ts `sendTestEvent`); audited.
 * @throws ApiError 404 NOT_FOUND, 409 INVALID_STATE (no address set)
 */
export async function sendTestFromConsole(tx: Tx, actor: ConsoleActor, input: { merchantId: string }, now = systemNow()) {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  const sent = await sendTestEvent(tx, { merchantId: input.merchantId, now });
  await writeAudit(
    tx,
    auditActor(actor),
    { action: "delivery.test_event", entity: "event", entityId: sent.eventId, merchantId: input.merchantId, after: sent },
    now,
  );
  return sent;
}

/**
 * Delivery list filters of the console: state, the Dubai day a delivery ended on and first attempt or retried
 * (what a callbacks chart bar links to), page; operators may pick a merchant. A malformed value is ignored.
 */
export const DeliveryFilters = z.object({
  state: z.enum(DELIVERY_STATES).optional().catch(undefined),
  endedOn: z.string().refine(isValidDay).optional().catch(undefined),
  attempts: z.enum(["first", "retried"]).optional().catch(undefined),
  path: z.enum(["listener", "address"]).optional().catch(undefined),
  merchant: z.uuid().optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});

/**
 * A page of deliveries visible to the actor (JSON-safe: times as ISO text), newest first, with `open` true while
 * any shown delivery is PENDING (the page keeps polling).
 */
export async function deliveryPage(db: Db, actor: ConsoleActor, q: z.output<typeof DeliveryFilters>, limit = 20) {
  const merchantId = merchantScope(actor) ?? q.merchant ?? null;
  const page = await listDeliveries(db, { merchantId, state: q.state, endedOn: q.endedOn, attempts: q.attempts, path: q.path, page: q.page, limit });
  const items = page.items.map((r) => ({
    ...r,
    nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
    waitingSince: r.waitingSince?.toISOString() ?? null,
    deliveredAt: r.deliveredAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    recordedAt: r.recordedAt?.toISOString() ?? null,
  }));
  return { ...page, items, open: items.some((r) => r.state === "PENDING") };
}
export type DeliveryPage = Awaited<ReturnType<typeof deliveryPage>>;

/**
 * One delivery with its event and attempts, for its console page.
 * @throws ApiError 404 NOT_FOUND (unknown, or another merchant's for a MERCHANT user)
 */
export function deliveryDetail(db: Db, actor: ConsoleActor, deliveryId: string) {
  return getDelivery(db, { merchantId: merchantScope(actor), deliveryId });
}

export const ChaosModeInput = z.object({ merchantId: uuidField, enabled: checkbox, reason: reasonField });

/**
 * Switches a merchant's chaos mode on or off (docs/callbacks.md "Chaos mode"): MERCHANT users for their own
 * merchant, operators for any; a reason is required; one audit row with the before and after state and the reason.
 * @throws ApiError 404 NOT_FOUND (unknown merchant, or another merchant's for a MERCHANT user)
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function setChaosMode(tx: Tx, actor: ConsoleActor, input: z.output<typeof ChaosModeInput>, now = systemNow()): Promise<void> {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  const [before] = parseRows(
    ChaosModeRow,
    await tx.$queryRaw<Record<string, unknown>[]>`SELECT chaos_mode FROM merchants WHERE id = ${input.merchantId}::uuid FOR NO KEY UPDATE`,
  );
  if (!before) throw apiError("NOT_FOUND", "merchant not found");
  await tx.merchant.update({ where: { id: input.merchantId }, data: { chaosMode: input.enabled } });
  await auditMerchant(
    tx,
    actor,
    input.merchantId,
    { action: "merchant.chaos_mode", before: { chaosMode: before.chaosMode }, after: { chaosMode: input.enabled }, reason: input.reason },
    now,
  );
}

export const FastRetriesInput = z.object({ merchantId: uuidField, enabled: checkbox, reason: reasonField });

/**
 * Switches a merchant's fast retries on or off (docs/callbacks.md "Fast retries"), like chaos mode: MERCHANT users
 * for their own merchant, operators for any; a reason is required; one audit row (lib/domain/callbacks/fast-retries.ts).
 * @throws ApiError 404 NOT_FOUND (unknown merchant, or another merchant's for a MERCHANT user)
 */
export async function setFastRetries(tx: Tx, actor: ConsoleActor, input: z.output<typeof FastRetriesInput>, now = systemNow()): Promise<void> {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  await switchFastRetries(tx, auditActor(actor), { merchantId: input.merchantId, enabled: input.enabled, reason: input.reason }, now);
}

/** The overlaps the console offers for a secret rotation (docs/callbacks.md "Rotating the secret"). */
export const ROTATION_OVERLAPS = ["0s", "1h", "24h", "7d"] as const;

export const RotateSecretInput = z.object({
  merchantId: uuidField,
  overlap: z.enum(ROTATION_OVERLAPS, { message: "choose an overlap" }),
  reason: reasonField,
});

/**
 * Rotates a merchant's callback secret from the console, keeping the address (docs/callbacks.md "Rotating the
 * secret"): MERCHANT users for their own merchant, operators for any; a reason is required; audited
 * (lib/domain/callbacks/secret-rotation.ts). The secret is returned to be shown once. Overlaps run on the real clock.
 * @returns the new secret and the overlap's end (ISO 8601) or null.
 * @throws ApiError 404 NOT_FOUND (unknown merchant, or another merchant's for a MERCHANT user), 409 INVALID_STATE (no
 *   address set)
 */
export async function rotateSecretFromConsole(tx: Tx, actor: ConsoleActor, input: z.output<typeof RotateSecretInput>) {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  return rotateCallbackSecret(
    tx,
    auditActor(actor),
    { merchantId: input.merchantId, overlapMs: parseOverlap(input.overlap), reason: input.reason },
    systemNow(),
  );
}

export const EndOverlapInput = z.object({ merchantId: uuidField });

/**
 * Ends a rotation's overlap now from the console (docs/callbacks.md "Rotating the secret"); same access as
 * {@link rotateSecretFromConsole}; audited when an overlap was running.
 * @throws ApiError 404 NOT_FOUND
 */
export async function endOverlapFromConsole(tx: Tx, actor: ConsoleActor, input: z.output<typeof EndOverlapInput>): Promise<void> {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  await endCallbackSecretOverlap(tx, auditActor(actor), { merchantId: input.merchantId, reason: "ended from the console" }, systemNow());
}

export const SignatureCheckInput = z.object({
  deliveryId: uuidField,
  attempt: integer(1, 1_000_000),
  timestamp: text(40, "timestamp"),
  // The body exactly as pasted: no trimming, a changed byte is what the check looks for.
  body: z.string({ message: "required" }).min(1, { message: "required" }).max(65_536, { message: "body is at most 65536 characters" }),
  signature: text(200, "signature"),
});

export const ForwardSignatureCheckInput = SignatureCheckInput.omit({ attempt: true }).extend({ forwardAttemptId: uuidField });

/**
 * "Check my verification" on a delivery attempt (docs/callbacks.md "Signature debugger"): compares what the
 * merchant's code used and computed with what the service signed for that attempt, trying the merchant's current
 * callback secret and, to name a mix-up, the listener secret of each of its API keys. Secrets are never returned.
 * Audited (who checked which delivery, and whether it verified), without the body or signature.
 * @throws ApiError 404 NOT_FOUND (delivery or attempt not visible), 409 INVALID_STATE (no callback secret set)
 */
export async function checkSignature(tx: Tx, actor: ConsoleActor, input: z.output<typeof SignatureCheckInput>, now = systemNow()): Promise<SignatureDiagnosis> {
  const delivery = await getDelivery(tx, { merchantId: merchantScope(actor), deliveryId: input.deliveryId });
  const attempt = delivery.attempts.find((a) => a.number === input.attempt);
  if (!attempt) throw apiError("NOT_FOUND", "attempt not found");
  const { callbackSecret, replacedSecrets, listenerSecrets } = await secretsOf(tx, delivery.merchantId);
  if (!callbackSecret) throw apiError("INVALID_STATE", "this merchant has no callback secret: set a callback address first");
  const diagnosis = diagnoseSignature({
    secret: callbackSecret,
    others: [...replacedSecrets, ...listenerSecrets.map((k) => k.named)],
    sent: attempt.signedTimestamp ? { timestamp: attempt.signedTimestamp, body: delivery.event.body } : null,
    given: { timestamp: input.timestamp, body: input.body, signature: input.signature },
    nowSeconds: Math.floor(now.getTime() / 1000),
  });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "delivery.signature_check",
      entity: "delivery",
      entityId: delivery.id,
      merchantId: delivery.merchantId,
      after: { attempt: attempt.number, verified: diagnosis.verified },
    },
    now,
  );
  return diagnosis;
}

/**
 * "Check my verification" on a listener forward attempt (docs/callbacks.md "Forwards on the service"): the same
 * check as for a delivery attempt, against the listener secret of the API key whose `sandpiper listen` reported the
 * forward; the callback secret and the other keys' listener secrets are tried to name a mix-up. Reached from the
 * event's delivery page, so the same scope applies. Audited as `listener_forward.signature_check`, without the body
 * or signature.
 * @throws ApiError 404 NOT_FOUND (delivery, or a forward attempt of its event, not visible)
 */
export async function checkForwardSignature(
  tx: Tx,
  actor: ConsoleActor,
  input: z.output<typeof ForwardSignatureCheckInput>,
  now = systemNow(),
): Promise<SignatureDiagnosis> {
  const delivery = await getDelivery(tx, { merchantId: merchantScope(actor), deliveryId: input.deliveryId });
  const forward = await tx.listenerForward.findFirst({
    where: { id: input.forwardAttemptId, eventId: delivery.eventId },
    select: { id: true, apiKeyId: true, forwardId: true, attempt: true, signedTimestamp: true },
  });
  if (!forward) throw apiError("NOT_FOUND", "listener forward attempt not found");
  const { callbackSecret, listenerSecrets } = await secretsOf(tx, delivery.merchantId);
  const signer = listenerSecrets.find((k) => k.id === forward.apiKeyId);
  if (!signer) throw apiError("NOT_FOUND", "the API key that reported this forward no longer exists");
  const diagnosis = diagnoseSignature({
    secret: signer.named.secret,
    others: [
      ...(callbackSecret ? [{ label: "your callback secret (the one for your configured address)", secret: callbackSecret }] : []),
      ...listenerSecrets.filter((k) => k.id !== signer.id).map((k) => k.named),
    ],
    sent: { timestamp: forward.signedTimestamp, body: delivery.event.body },
    given: { timestamp: input.timestamp, body: input.body, signature: input.signature },
    nowSeconds: Math.floor(now.getTime() / 1000),
    signedWith: { kind: "listener", keyPrefix: signer.prefix },
  });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "listener_forward.signature_check",
      entity: "delivery",
      entityId: delivery.id,
      merchantId: delivery.merchantId,
      after: { forwardId: forward.forwardId, attempt: forward.attempt, verified: diagnosis.verified },
    },
    now,
  );
  return diagnosis;
}

/** A merchant's callback secret (null when no address was set) and the listener secret of each of its API keys. */
async function secretsOf(tx: Tx, merchantId: string) {
  const merchant = await tx.merchant.findUniqueOrThrow({
    where: { id: merchantId },
    select: { callbackSecret: true, previousCallbackSecret: true, previousCallbackSecretUntil: true },
  });
  const keys = await tx.apiKey.findMany({
    where: { merchantId },
    select: { id: true, hash: true, prefix: true, listenerSecretGeneration: true, previousListenerSecretUntil: true },
  });
  // During a rotation's overlap X-Service-Signature is made with the previous secret (docs/callbacks.md "Rotating the secret").
  const { secret, previousSecret } = signingSecrets(merchant, systemNow());
  const replaced = previousSecret ? secret : merchant.previousCallbackSecret;
  return {
    callbackSecret: previousSecret ?? secret,
    replacedSecrets: replaced
      ? [
          {
            label: previousSecret
              ? "your new callback secret (X-Service-Signature keeps the previous one until the overlap ends)"
              : "your previous callback secret (replaced by a rotation)",
            secret: replaced,
          },
        ]
      : [],
    listenerSecrets: keys.map((k) => ({
      id: k.id,
      prefix: k.prefix,
      // The generation that signs X-Service-Signature now: the previous one during a rotation's overlap.
      named: {
        label: `the sandpiper listen secret of API key ${k.prefix}...`,
        secret: listenerSecretFromKeyHash(k.hash, listenerSecretStateOf(k, systemNow()).previousGeneration ?? k.listenerSecretGeneration),
      },
    })),
  };
}

/** The merchants in the actor's scope whose chaos mode is on (the console's banner), by name. */
export function merchantsInChaosMode(db: Db, actor: ConsoleActor): Promise<{ id: string; name: string }[]> {
  const scope = merchantScope(actor);
  return db.merchant.findMany({ where: { chaosMode: true, ...(scope ? { id: scope } : {}) }, select: { id: true, name: true }, orderBy: { name: "asc" } });
}

/**
 * One merchant's callback settings for the Callbacks page: id, name, callbackUrl (null = not configured),
 * chaosMode, fastRetries, clockOffsetMs and previousCallbackSecretUntil (a rotation's overlap end, possibly past); null when the actor may not see that merchant or it does not exist. The secret is never
 * returned.
 */
export async function callbackSettings(db: Db, actor: ConsoleActor, merchantId: string) {
  const scope = merchantScope(actor);
  if (scope && scope !== merchantId) return null;
  return db.merchant.findUnique({
    where: { id: merchantId },
    select: {
      id: true,
      name: true,
      callbackUrl: true,
      returnUrl: true,
      chaosMode: true,
      fastRetries: true,
      clockOffsetMs: true,
      previousCallbackSecretUntil: true,
    },
  });
}
