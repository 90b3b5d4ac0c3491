-- The real time an event was written (docs/architecture.md "Which clock a column holds"): under a merchant's moved
-- sandbox clock events.created_at holds the sandbox time, so the listener's forward records (real time, from the
-- listener's machine) are checked against this column instead (docs/callbacks.md "Forwards on the service"). The
-- database's clock fills it (the transaction's start), as 20261128020000_recorded_at does for payments, deliveries and
-- the audit log. Nullable and defaulted: no rewrite of the table, no change to any insert; rows written before this
-- migration keep NULL (the default is set after the column is added) and are checked against the stream's opening only.
ALTER TABLE "events" ADD COLUMN "recorded_at" TIMESTAMPTZ(3);
ALTER TABLE "events" ALTER COLUMN "recorded_at" SET DEFAULT CURRENT_TIMESTAMP;
