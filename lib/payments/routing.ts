import type { Tx } from "@/lib/db";
import { apiError } from "@/lib/errors";

/**
 * Routes a bank-transfer deposit to an active service bank account with capacity left for the Dubai day
 * (least used first), consuming one unit of its daily capacity in the caller's transaction.
 * @throws ApiError 503 NO_ROUTE when no active account exists, 503 BANK_CAPACITY when all are full.
 */
export async function routeBankTransfer(tx: Tx, day: string): Promise<string> {
  const accounts = await tx.bankAccount.findMany({ where: { active: true }, select: { id: true, dailyCapacity: true } });
  if (accounts.length === 0) throw apiError("NO_ROUTE", "no bank account is available for bank transfers; retry later with the same Idempotency-Key");
  const usage = await tx.bankAccountUsage.findMany({ where: { day, bankAccountId: { in: accounts.map((a) => a.id) } } });
  const used = new Map(usage.map((u) => [u.bankAccountId, u.used]));
  const candidates = accounts
    .filter((a) => (used.get(a.id) ?? 0) < a.dailyCapacity)
    .sort((a, b) => (used.get(a.id) ?? 0) - (used.get(b.id) ?? 0) || a.id.localeCompare(b.id));
  for (const account of candidates) {
    // Conditional increment: a concurrent request may have taken the last unit.
    const rows = await tx.$queryRaw<{ used: number }[]>`
      INSERT INTO bank_account_usage (bank_account_id, day, used) VALUES (${account.id}::uuid, ${day}, 1)
      ON CONFLICT (bank_account_id, day) DO UPDATE SET used = bank_account_usage.used + 1
      WHERE bank_account_usage.used < ${account.dailyCapacity}
      RETURNING used`;
    if (rows.length === 1) return account.id;
  }
  throw apiError("BANK_CAPACITY", "the daily capacity of the active bank accounts is full; retry later");
}
