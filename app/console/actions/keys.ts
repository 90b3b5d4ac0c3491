"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/application/console/action";
import { formatConsoleDay } from "@/lib/platform/time-format";
import { optionalText, uuidField } from "@/lib/contract/schemas/forms/fields";
import { createKey, NewKeyInput, revokeKey } from "@/lib/domain/keys/manage-keys";

/** Creates an API key; the secret is returned once in the action state and never stored. */
export const createKeyAction = consoleAction(NewKeyInput, async ({ actor, tx, input, now }) => {
  const issued = await createKey(tx, actor, input, now);
  return {
    message: `Created key ${issued.prefix}… (expires ${formatConsoleDay(issued.expiresAt)} Dubai).`,
    shownOnce: { "API key": issued.key },
  };
});

export const revokeKeyAction = consoleAction(z.object({ keyId: uuidField, reason: optionalText(500) }), async ({ actor, tx, input, now }) => {
  await revokeKey(tx, actor, input, now);
  return { message: "Revoked: requests with this key now get 401 INVALID_API_KEY." };
});
