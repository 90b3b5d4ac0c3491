"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/application/console/action";
import { reasonField } from "@/lib/contract/schemas/forms/fields";
import { PricingVersionInput, saveProfileVersion, setProfileEnabled } from "@/lib/domain/pricing/profile-versions";

/** Saves a new immutable pricing profile version (operator only; reason required). */
export const savePricing = consoleAction(PricingVersionInput, async ({ actor, tx, input, now }) => {
  const v = await saveProfileVersion(tx, actor, input, now);
  return {
    message: `Saved version ${v.version} of ${input.currency} ${input.channel} ${input.direction}. New payments use it; existing snapshots stay as they are.`,
  };
});

/** Enables or disables a profile by saving a copy of its latest version (operator only; reason required). */
export const toggleProfile = consoleAction(
  z.object({ profileId: z.uuid(), enabled: z.enum(["true", "false"]).transform((v) => v === "true"), reason: reasonField }),
  async ({ actor, tx, input, now }) => {
    const v = await setProfileEnabled(tx, actor, input, now);
    return { message: `Saved version ${v.version}: the profile is now ${v.enabled ? "enabled" : "disabled"}.` };
  },
);
