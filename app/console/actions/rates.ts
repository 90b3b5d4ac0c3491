"use server";

import { consoleAction } from "@/lib/application/console/action";
import { importRates, RateImportInput, RateInput, saveRate, type SavedRates } from "@/lib/domain/pricing/fx-rates";

const days = (r: SavedRates) => (r.day === r.through ? `for ${r.day}` : `for ${r.day} to ${r.through}`);

/** Enters or corrects a direct base rate for a Dubai day or a range of days (operator only; reason required; audited). */
export const enterRate = consoleAction(RateInput, async ({ actor, tx, input, now }) => {
  const r = await saveRate(tx, actor, input, now);
  return { message: `Saved ${r.base}->${r.quote} = ${r.rate} ${days(r)}. Only payments created from now on use it.` };
});

/** Imports rates from CSV (header base,quote,from,through,rate), all or nothing (operator only; one audit row per line). */
export const importRatesAction = consoleAction(RateImportInput, async ({ actor, tx, input, now }) => {
  const saved = await importRates(tx, actor, input, now);
  return {
    message: `Imported ${saved.length} rate entr${saved.length === 1 ? "y" : "ies"}.`,
    details: saved.map((r) => ({ ok: true, text: `${r.base}->${r.quote} = ${r.rate} ${days(r)} (${r.created} new, ${r.corrected} corrected)` })),
  };
});
