"use server";

import { consoleAction } from "@/lib/console/action";
import { RateInput, saveRate } from "@/lib/pricing/fx-rates";

/** Enters or corrects a direct base rate for a Dubai day (operator only; reason required). */
export const enterRate = consoleAction(RateInput, async ({ actor, tx, input, now }) => {
  const r = await saveRate(tx, actor, input, now);
  return { message: `Saved ${r.base}->${r.quote} = ${r.rate} for ${r.day}. Only payments created from now on use it.` };
});
