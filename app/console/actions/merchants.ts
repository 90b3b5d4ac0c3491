"use server";

import { z } from "zod";
import { callbackUrlPolicy } from "@/lib/domain/callbacks/callback-config";
import { consoleAction } from "@/lib/application/console/action";
import { optionalText, reasonField, uuidField } from "@/lib/contract/schemas/forms/fields";
import {
  activateMerchant,
  createMerchantFromConsole,
  deactivateMerchant,
  MerchantPolicyInput,
  NewMerchantInput,
  updateMerchantPolicy,
} from "@/lib/domain/merchants/manage-merchants";

export const createMerchantAction = consoleAction(NewMerchantInput, async ({ actor, tx, input, now }) => {
  const m = await createMerchantFromConsole(tx, actor, input, now);
  return { message: `Created ${m.name} (inactive). Register a server IP and a callback address, then activate it.` };
});

export const updatePolicy = consoleAction(MerchantPolicyInput, async ({ actor, tx, input, now }) => {
  const m = await updateMerchantPolicy(tx, actor, input, now);
  return { message: `Saved ${m.name}'s settings. They apply to payments created from now on.` };
});

export const activate = consoleAction(z.object({ merchantId: uuidField, reason: optionalText(500) }), async ({ actor, tx, input, now }) => {
  const m = await activateMerchant(tx, actor, { merchantId: input.merchantId, reason: input.reason ?? "" }, now, {
    allowLoopback: callbackUrlPolicy().allowLoopback,
  });
  return { message: `${m.name} is active.` };
});

export const deactivate = consoleAction(z.object({ merchantId: uuidField, reason: reasonField }), async ({ actor, tx, input, now }) => {
  const m = await deactivateMerchant(tx, actor, input, now);
  return { message: `${m.name} is inactive and all its API keys are revoked.` };
});
