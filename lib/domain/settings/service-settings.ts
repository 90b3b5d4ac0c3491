import { z } from "zod";
import { parseRow, type Db } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import { fromMinor, toMinor } from "@/lib/contract/money/currency";
import { Amount } from "@/lib/contract/schemas/api/common";
import { parseStored } from "@/lib/contract/schemas/stored/parse";

/** Operator switches and limits (console: merchants, intake pause, global amount limit, store). */
const ServiceSettings = z.object({
  /** docs/api.md "Overview" 503 PAYMENT_INTAKE_PAUSED: the whole system is closed to new payments. */
  intakePaused: z.boolean(),
  /** Channels (BANK_TRANSFER, GATEWAY, STORE) closed to new payments. */
  pausedChannels: z.array(z.string()),
  /** docs/api.md "Pricing": global amount limit, default 0.01 to 1,000,000.00 in the payment currency (decimal text). */
  globalMinAmount: Amount,
  globalMaxAmount: Amount,
  /** Store checkout switches (503 STORE_DISABLED / STORE_UNAVAILABLE). */
  storeEnabled: z.boolean(),
  storeAvailable: z.boolean(),
});
export type ServiceSettings = z.output<typeof ServiceSettings>;

/** The stored settings (`settings.value` of key "service"): any member may be absent (its default applies). */
const StoredSettings = ServiceSettings.partial().nullable();

export const DEFAULT_SETTINGS: ServiceSettings = {
  intakePaused: false,
  pausedChannels: [],
  globalMinAmount: "0.01",
  globalMaxAmount: "1000000.00",
  storeEnabled: true,
  storeAvailable: true,
};

const KEY = "service";

/** A JSON column: the stored service settings, or null (read it with {@link settingsOf}). */
export const SETTINGS_COLUMN = Prisma.sql`(SELECT value FROM settings WHERE key = ${KEY})`;

/**
 * The service settings from {@link SETTINGS_COLUMN}'s JSON, parsed by their schema: defaults for anything not stored.
 * @throws StoredDataError (lib/contract/schemas/stored/parse.ts) naming a stored member of another type
 */
export function settingsOf(value: unknown): ServiceSettings {
  return { ...DEFAULT_SETTINGS, ...parseStored(StoredSettings, value, "settings.value (service)") };
}

/**
 * The row of `SELECT SETTINGS_COLUMN AS value`: the column must be there; its JSON is checked once, by {@link settingsOf},
 * so the row's own check looks no deeper than the column's presence.
 */
const SettingsRow = z.object({ value: z.unknown() });

/**
 * Reads the service settings (defaults for anything not stored).
 * @throws StoredDataError naming a stored member of another type; ZodError for a row without its column (a schema drift)
 */
export async function getSettings(db: Db): Promise<ServiceSettings> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`SELECT ${SETTINGS_COLUMN} AS value`;
  return settingsOf(parseRow(SettingsRow, row).value);
}

/** Stores a partial change of the service settings and returns the result. */
export async function updateSettings(db: Db, change: Partial<ServiceSettings>): Promise<ServiceSettings> {
  const next = { ...(await getSettings(db)), ...change };
  await db.setting.upsert({ where: { key: KEY }, create: { key: KEY, value: next }, update: { value: next } });
  return next;
}

/** The global amount limit in minor units. */
export function globalAmountLimit(settings: ServiceSettings): { min: bigint; max: bigint } {
  return { min: toMinor(settings.globalMinAmount), max: toMinor(settings.globalMaxAmount) };
}

/**
 * Checks an amount against the global amount limit (docs/api.md "Pricing": default 0.01 to 1,000,000.00).
 * @throws ApiError 400 GLOBAL_AMOUNT_LIMIT
 */
export function assertWithinGlobalLimit(settings: ServiceSettings, amountMinor: bigint): void {
  const limit = globalAmountLimit(settings);
  if (amountMinor < limit.min || amountMinor > limit.max) {
    throw apiError("GLOBAL_AMOUNT_LIMIT", `amount must be between ${fromMinor(limit.min)} and ${fromMinor(limit.max)}`);
  }
}
