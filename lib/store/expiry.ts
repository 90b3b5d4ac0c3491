// Store checkouts expire with their payment (docs/api.md "Store checkout": QUEUED or READY ->
// EXPIRED when the payment expires).
import type { Tx } from "@/lib/db";
import { onPaymentExpired } from "@/lib/payments/expire";

/**
 * Expiry hook: in the expiry sweep's transaction, a QUEUED or READY store checkout of the expired payment
 * becomes EXPIRED (its page then shows the expired notice and can no longer pay). Checkouts in a final
 * state are left alone; a payment without a store checkout changes nothing.
 */
export async function expireStoreCheckout(tx: Tx, paymentId: string, now: Date): Promise<void> {
  await tx.storeCheckout.updateMany({
    where: { paymentId, state: { in: ["QUEUED", "READY"] } },
    data: { state: "EXPIRED", nextHandoffAt: null, updatedAt: now },
  });
}

// Registered on import: lib/jobs/registry.ts and lib/jobs/inngest.ts import this module, so every process
// that runs the expiry sweep runs the hook.
onPaymentExpired(expireStoreCheckout);
