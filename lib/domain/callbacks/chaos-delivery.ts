// Chaos mode on the service's own deliveries (docs/callbacks.md "Chaos mode"): the extra requests it sends to the
// configured address beside a real attempt, recorded as chaos_injections rows, never as attempts.
import { systemNow } from "@/lib/platform/clock";
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/platform/db";
import { CHAOS_EXPECTED, STALE_TIMESTAMP_AGE_SECONDS, chaosPlan, type ChaosKind, type ChaosPlan } from "@/lib/contract/callbacks/chaos";
import { sendCallbackRequest, type SendCallbackResult } from "@/lib/domain/callbacks/send";
import { buildCallbackHeaders } from "@/lib/contract/callbacks/signing";
import { log } from "@/lib/platform/log";

/** A checked callback address: the URL and the resolved address the request connects to. */
export type SendTarget = { url: URL; address: string; family: 4 | 6 };

/**
 * The chaos plan of a delivery's event for the configured address, or null when the delivery already had its
 * injections (a retry or a requeue injects nothing more) or the plan injects nothing.
 */
export async function pendingChaosPlan(deliveryId: string, eventId: string): Promise<ChaosPlan | null> {
  const plan = chaosPlan(eventId, "callback");
  if (plan.kinds.length === 0) return null;
  const done = await getDb().chaosInjection.count({ where: { deliveryId } });
  return done === 0 ? plan : null;
}

/** Input of {@link injectChaos}: the delivery, the event body and secret, where the real attempt went and how it ended. */
export type InjectChaosInput = {
  deliveryId: string;
  eventId: string;
  merchantId: string;
  body: string;
  secret: string;
  /** The secret a rotation replaced, while its overlap lasts (docs/callbacks.md "Rotating the secret"); else null. */
  previousSecret: string | null;
  url: string;
  target: SendTarget;
  plan: ChaosPlan;
  /** The real attempt's result (a `delay` row reports it: the delayed request is the real one). */
  real: SendCallbackResult;
  timeoutMs?: number;
};

/**
 * Sends what the plan injects beside a real attempt and records one chaos_injections row per kind, with what a
 * correct receiver answers (lib/contract/callbacks/chaos.ts CHAOS_EXPECTED): `duplicate` (the same event, correctly signed),
 * `bad_signature` (signed with a random key), `stale_timestamp` (correctly signed, 10 minutes old), and `delay`
 * (the real attempt itself was held back; its row reports the real answer). Never touches the delivery or its
 * attempts. Send failures are recorded, never thrown; a failure to record is logged.
 */
export async function injectChaos(input: InjectChaosInput): Promise<void> {
  const rows = [];
  for (const kind of input.plan.kinds) {
    const sentAt = systemNow();
    const result = kind === "delay" ? input.real : await sendInjected(input, kind);
    rows.push({
      deliveryId: input.deliveryId,
      eventId: input.eventId,
      merchantId: input.merchantId,
      kind,
      expected: CHAOS_EXPECTED[kind],
      url: input.url,
      sentAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error,
      responseSnippet: result.responseSnippet,
    });
  }
  try {
    await getDb().chaosInjection.createMany({ data: rows });
  } catch (error) {
    log.warn({ deliveryId: input.deliveryId, err: error instanceof Error ? error.message : String(error) }, "chaos injections not recorded");
  }
}

function sendInjected(input: InjectChaosInput, kind: Exclude<ChaosKind, "delay">): Promise<SendCallbackResult> {
  const forged = kind === "bad_signature";
  const secret = forged ? `whsec_${randomBytes(32).toString("base64url")}` : input.secret;
  const nowMs = kind === "stale_timestamp" ? systemNow().getTime() - STALE_TIMESTAMP_AGE_SECONDS * 1000 : systemNow().getTime();
  const headers = buildCallbackHeaders({ eventId: input.eventId, rawBody: input.body, secret, previousSecret: forged ? null : input.previousSecret, nowMs });
  return sendCallbackRequest({ ...input.target, headers, body: input.body, timeoutMs: input.timeoutMs });
}
