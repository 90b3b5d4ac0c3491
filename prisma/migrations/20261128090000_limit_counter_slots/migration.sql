-- Limit counters in slots (docs/architecture.md "Consistency"): every create of a profile added its amount to the
-- same two rows (the day's and the month's counter), even for a profile without limits, so the creates of one
-- merchant held those rows from their write until their commit and committed one after the other. A counter is now
-- the sum of up to 33 rows per profile and period: slot 0, which a create under a limit adds to (its row lock
-- serialises the creates the limit bounds) and releases take from, and slots 1 to 32, one of which a create without a
-- limit for that period picks at random. Existing rows become slot 0. Releases give amounts back to slot 0 even when
-- the usage sits in other slots, so slot 0 may go below zero (what counts is the sum, read clamped at 0); the other
-- slots only ever grow.
ALTER TABLE "limit_counters"
  DROP CONSTRAINT "limit_counters_pkey",
  DROP CONSTRAINT "limit_counters_nonnegative",
  ADD COLUMN "slot" SMALLINT NOT NULL DEFAULT 0,
  ADD CONSTRAINT "limit_counters_pkey" PRIMARY KEY ("profile_id", "period", "slot"),
  ADD CONSTRAINT "limit_counters_nonnegative" CHECK ("slot" = 0 OR "used_minor" >= 0);
