// The merchants whose sandbox clock is moved (docs/api.md "Sandbox clock"), for the sweeps that read the time: they
// run once for these merchants at each one's sandbox time, then once for everyone at the real time.
import { Prisma, type Db } from "@/lib/db";

/** A merchant whose sandbox clock runs `offsetMs` (> 0) ahead of the real clock. */
export type MovedClock = { merchantId: string; offsetMs: bigint };

/** The merchants with a moved clock (a partial index keeps this read small when none is). */
export function movedClocks(db: Db): Promise<MovedClock[]> {
  return db.$queryRaw<MovedClock[]>`SELECT id AS "merchantId", clock_offset_ms AS "offsetMs" FROM merchants WHERE clock_offset_ms <> 0`;
}

/** SQL condition narrowing a sweep to one merchant's rows (`column` names the row's merchant id), or nothing. */
export const merchantFilter = (column: Prisma.Sql, merchantId: string | undefined) =>
  merchantId ? Prisma.sql`AND ${column} = ${merchantId}::uuid` : Prisma.empty;
