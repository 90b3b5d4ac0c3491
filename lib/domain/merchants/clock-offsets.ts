// The merchants whose sandbox clock is moved (docs/api.md "Sandbox clock"), for the sweeps that read the time: they
// run once for these merchants at each one's sandbox time, then once for everyone at the real time.
import { z } from "zod";
import { parseRows, Prisma, type Db } from "@/lib/platform/db";

/** A merchant whose sandbox clock runs `offsetMs` (> 0, milliseconds) ahead of the real clock. */
const MovedClockRow = z.object({ merchantId: z.string(), offsetMs: z.bigint() });
export type MovedClock = z.output<typeof MovedClockRow>;

/**
 * The merchants with a moved clock (a partial index keeps this read small when none is), rows checked with `parseRow`.
 * @throws ZodError when a column is missing or of another type (a schema drift).
 */
export async function movedClocks(db: Db): Promise<MovedClock[]> {
  return parseRows(
    MovedClockRow,
    await db.$queryRaw<Record<string, unknown>[]>`SELECT id AS "merchantId", clock_offset_ms AS "offsetMs" FROM merchants WHERE clock_offset_ms <> 0`,
  );
}

/** SQL condition narrowing a sweep to one merchant's rows (`column` names the row's merchant id), or nothing. */
export const merchantFilter = (column: Prisma.Sql, merchantId: string | undefined) =>
  merchantId ? Prisma.sql`AND ${column} = ${merchantId}::uuid` : Prisma.empty;
