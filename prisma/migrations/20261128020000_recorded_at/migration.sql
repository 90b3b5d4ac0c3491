-- The real time a row was written (docs/operating.md "Times in the console"): under a merchant's moved sandbox clock
-- created_at holds the sandbox time, so the console orders its payment, delivery and audit lists by this column and
-- shows it beside the sandbox time. The database's clock fills it (the transaction's start); rows written before this
-- migration have none and sort after every row that has one, by created_at. Nullable and defaulted: no rewrite of the
-- tables, no change to any insert. The merchant API neither reads nor returns it.
-- The default is set after the column is added, so the rows already there keep NULL rather than this moment.
ALTER TABLE "payments" ADD COLUMN "recorded_at" TIMESTAMPTZ(3);
ALTER TABLE "payments" ALTER COLUMN "recorded_at" SET DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "deliveries" ADD COLUMN "recorded_at" TIMESTAMPTZ(3);
ALTER TABLE "deliveries" ALTER COLUMN "recorded_at" SET DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "audit_log" ADD COLUMN "recorded_at" TIMESTAMPTZ(3);
ALTER TABLE "audit_log" ALTER COLUMN "recorded_at" SET DEFAULT CURRENT_TIMESTAMP;
