import type { Tx } from "@/lib/platform/db";

/** One ledger line: positive minor amounts are debits, negative are credits. */
export type Posting = { account: string; currency: string; amountMinor: bigint };

/**
 * Writes a balanced double-entry ledger entry in the caller's transaction (docs/architecture.md "Consistency").
 * The database re-checks the balance at commit (constraint trigger in prisma/migrations/20261124055000_database_guards/migration.sql).
 * @throws Error when the postings do not sum to zero per currency, or the payment already has an entry of this kind.
 */
export async function postLedgerEntry(tx: Tx, paymentId: string, kind: string, postings: Posting[]): Promise<string> {
  const totals = new Map<string, bigint>();
  for (const p of postings) totals.set(p.currency, (totals.get(p.currency) ?? 0n) + p.amountMinor);
  for (const [currency, total] of totals) {
    if (total !== 0n) throw new Error(`unbalanced ledger entry in ${currency}: ${total}`);
  }
  const entry = await tx.ledgerEntry.create({
    data: { paymentId, kind, lines: { create: postings.filter((p) => p.amountMinor !== 0n) } },
  });
  return entry.id;
}

/**
 * The postings of a succeeded payment in its original currency.
 * Deposit: the sandbox clearing account is debited the amount; the merchant's payable is credited the
 * net, the merchant's reserve the reserve, and commission revenue the fee.
 * Withdrawal: the merchant's payable is debited amount + fee; clearing is credited the amount paid out and
 * commission revenue the fee.
 */
export function settlementPostings(p: {
  merchantId: string;
  direction: "DEPOSIT" | "WITHDRAWAL";
  currency: string;
  amountMinor: bigint;
  feeMinor: bigint;
  reserveMinor: bigint;
}): Posting[] {
  const c = p.currency;
  const payable = `merchant:${p.merchantId}:payable`;
  if (p.direction === "DEPOSIT") {
    return [
      { account: "sandbox:clearing", currency: c, amountMinor: p.amountMinor },
      { account: payable, currency: c, amountMinor: -(p.amountMinor - p.feeMinor - p.reserveMinor) },
      { account: `merchant:${p.merchantId}:reserve`, currency: c, amountMinor: -p.reserveMinor },
      { account: "revenue:commission", currency: c, amountMinor: -p.feeMinor },
    ];
  }
  return [
    { account: payable, currency: c, amountMinor: p.amountMinor + p.feeMinor },
    { account: "sandbox:clearing", currency: c, amountMinor: -p.amountMinor },
    { account: "revenue:commission", currency: c, amountMinor: -p.feeMinor },
  ];
}
