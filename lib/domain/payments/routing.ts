import { z } from "zod";
import { apiError } from "@/lib/contract/errors";
import { Prisma } from "@/lib/platform/generated/prisma/client";

/**
 * Bank-transfer routing (docs/architecture.md "Hot paths"; capacity is counted in deposits per Dubai day): a JSON
 * column of the active service bank accounts with their capacity and their use on a Dubai day.
 */
export function bankAccountsColumn(day: string): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'dailyCapacity', a.daily_capacity, 'used', coalesce(u.used, 0))), '[]'::jsonb)
    FROM bank_accounts a LEFT JOIN bank_account_usage u ON u.bank_account_id = a.id AND u.day = ${day} WHERE a.active)`;
}

const Account = z.object({ id: z.string(), dailyCapacity: z.number().int(), used: z.number().int() });
export type BankAccountUse = z.output<typeof Account>;

/**
 * The accounts a bank-transfer deposit may be routed to, from {@link bankAccountsColumn}'s JSON: those with capacity
 * left, least used first (then by id).
 * @throws ApiError 503 NO_ROUTE when no active account exists, 503 BANK_CAPACITY when all are full.
 */
export function bankRouteCandidates(json: unknown): BankAccountUse[] {
  const accounts = z.array(Account).parse(json);
  if (accounts.length === 0) throw apiError("NO_ROUTE", "no bank account is available for bank transfers; retry later with the same Idempotency-Key");
  const candidates = accounts.filter((a) => a.used < a.dailyCapacity).sort((a, b) => a.used - b.used || a.id.localeCompare(b.id));
  if (candidates.length === 0) throw bankCapacityError();
  return candidates;
}

/** The refusal when every active account is full for the day. */
export function bankCapacityError() {
  return apiError("BANK_CAPACITY", "the daily capacity of the active bank accounts is full; retry later");
}

/**
 * The statement that takes one unit of an account's daily capacity: a conditional increment (a concurrent request
 * may have taken the last unit), returning a row (`used`) only when it took one.
 */
export function bankUsageCount(account: BankAccountUse, day: string): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO bank_account_usage (bank_account_id, day, used) VALUES (${account.id}::uuid, ${day}, 1)
    ON CONFLICT (bank_account_id, day) DO UPDATE SET used = bank_account_usage.used + 1
    WHERE bank_account_usage.used < ${account.dailyCapacity}
    RETURNING used`;
}
