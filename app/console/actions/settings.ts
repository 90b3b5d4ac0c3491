"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/application/console/action";
import { reasonField, uuidField } from "@/lib/contract/schemas/forms/fields";
import { IntakeInput, setIntake } from "@/lib/domain/settings/intake";
import { addBlockEntry, BlockEntryInput, removeBlockEntry } from "@/lib/domain/risk/block-list-entries";

export const saveIntake = consoleAction(IntakeInput, async ({ actor, tx, input, now }) => {
  const s = await setIntake(tx, actor, input, now);
  const state = s.intakePaused ? "all intake paused" : s.pausedChannels.length ? `paused: ${s.pausedChannels.join(", ")}` : "intake open on every channel";
  return { message: `Saved: ${state}.` };
});

export const addBlock = consoleAction(BlockEntryInput, async ({ actor, tx, input, now }) => {
  const row = await addBlockEntry(tx, actor, input, now);
  return { message: `Blocked ${row.kind} ${row.value}.` };
});

export const removeBlock = consoleAction(z.object({ id: uuidField, reason: reasonField }), async ({ actor, tx, input, now }) => {
  await removeBlockEntry(tx, actor, input, now);
  return { message: "Removed the block-list entry." };
});
