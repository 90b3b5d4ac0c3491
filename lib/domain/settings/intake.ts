import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { writeAudit } from "@/lib/domain/audit";
import { assertOperator, auditActor, type ConsoleActor } from "@/lib/domain/auth/actor";
import { checkbox, checkboxGroup, reasonField } from "@/lib/contract/schemas/forms/fields";
import type { Tx } from "@/lib/platform/db";
import { getSettings, updateSettings, type ServiceSettings } from "@/lib/domain/settings/service-settings";

/** Channels that can be paused one by one (docs/api.md "Overview" 503 PAYMENT_INTAKE_PAUSED "system or channel closed"). */
export const CHANNELS = ["BANK_TRANSFER", "GATEWAY", "STORE"] as const;

export const IntakeInput = z.object({ intakePaused: checkbox, pausedChannels: checkboxGroup(CHANNELS), reason: reasonField });

/**
 * Sets the global intake pause and the paused channels (operator only); audited with before and after.
 * New payments then get 503 PAYMENT_INTAKE_PAUSED; existing payments are not affected.
 */
export async function setIntake(tx: Tx, actor: ConsoleActor, input: z.output<typeof IntakeInput>, now = systemNow()): Promise<ServiceSettings> {
  assertOperator(actor);
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('settings:service'))`;
  const before = await getSettings(tx);
  const after = await updateSettings(tx, { intakePaused: input.intakePaused, pausedChannels: [...input.pausedChannels] });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "settings.intake",
      entity: "settings",
      entityId: "service",
      before: { intakePaused: before.intakePaused, pausedChannels: before.pausedChannels },
      after: { intakePaused: after.intakePaused, pausedChannels: after.pausedChannels },
      reason: input.reason,
    },
    now,
  );
  return after;
}
