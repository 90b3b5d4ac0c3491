// Fast retries: a merchant's sandbox setting that compresses the callback retry schedule (docs/callbacks.md
// "Fast retries"). Switched in the console (Callbacks page) or with PUT /v1/sandbox/settings; audited either way.
import { writeAudit, type AuditActor } from "@/lib/domain/audit";
import { z } from "zod";
import { parseRows, withTransaction, type Db, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { MAX_ATTEMPTS, retryWaitsSeconds } from "@/lib/contract/callbacks/retry-schedule";

/** `GET` / `PUT /v1/sandbox/settings` (docs/api.md "Test helpers"): the merchant's sandbox settings. */
export type SandboxSettings = {
  fastRetries: boolean;
  /** The callback schedule in force for the merchant: attempts and the waits after attempts 1 to 7, in seconds. */
  callbackRetries: { attempts: number; waitsSeconds: number[] };
};

/** The settings answer for a merchant whose fast retries are `fastRetries`. */
export function sandboxSettingsOf(fastRetries: boolean): SandboxSettings {
  return { fastRetries, callbackRetries: { attempts: MAX_ATTEMPTS, waitsSeconds: retryWaitsSeconds({ fastRetries }) } };
}

/**
 * Reads a merchant's sandbox settings.
 * @throws ApiError 404 NOT_FOUND for an unknown merchant
 */
export async function getSandboxSettings(db: Db, merchantId: string): Promise<SandboxSettings> {
  const merchant = await db.merchant.findUnique({ where: { id: merchantId }, select: { fastRetries: true } });
  if (!merchant) throw apiError("NOT_FOUND", "merchant not found");
  return sandboxSettingsOf(merchant.fastRetries);
}

/** The row of {@link switchFastRetries}' lock of the merchant. */
const FastRetriesRow = z.object({ fastRetries: z.boolean() });

/**
 * Switches a merchant's fast retries on or off (docs/callbacks.md "Fast retries"): the row is locked, changed and
 * one audit row written (action `merchant.fast_retries`, before and after, the reason) in one transaction; a
 * switch to the value it already has changes and audits nothing. Applies from the next failed attempt of every
 * pending delivery (a wait already scheduled is kept; POST /v1/sandbox/deliveries/{id}/attempt runs it now).
 * The console's access check is the caller's (lib/domain/callbacks/manage-callbacks.ts setFastRetries).
 * @returns the settings afterwards
 * @throws ApiError 404 NOT_FOUND for an unknown merchant
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function switchFastRetries(
  db: Db | Tx,
  actor: AuditActor,
  input: { merchantId: string; enabled: boolean; reason?: string | null },
  now: Date,
): Promise<SandboxSettings> {
  return withTransaction(db, async (tx) => {
    const [before] = parseRows(
      FastRetriesRow,
      await tx.$queryRaw<Record<string, unknown>[]>`SELECT fast_retries FROM merchants WHERE id = ${input.merchantId}::uuid FOR NO KEY UPDATE`,
    );
    if (!before) throw apiError("NOT_FOUND", "merchant not found");
    if (before.fastRetries !== input.enabled) {
      await tx.merchant.update({ where: { id: input.merchantId }, data: { fastRetries: input.enabled } });
      await writeAudit(
        tx,
        actor,
        {
          action: "merchant.fast_retries",
          entity: "merchant",
          entityId: input.merchantId,
          merchantId: input.merchantId,
          before: { fastRetries: before.fastRetries },
          after: { fastRetries: input.enabled },
          reason: input.reason ?? null,
        },
        now,
      );
    }
    return sandboxSettingsOf(input.enabled);
  });
}
