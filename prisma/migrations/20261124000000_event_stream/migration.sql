-- Events API and listeners (docs/callbacks.md "Events API"): every event, and every redelivery a merchant asks
-- for, gets a position `seq` in commit order, assigned at COMMIT by the deferred trigger event_feed_seq
-- (prisma/migrations/20261124055000_database_guards/migration.sql). A follower that reads `seq > cursor` never skips a transaction that committed late.
ALTER TABLE "events" ADD COLUMN "seq" BIGINT;

CREATE TABLE "event_sequence" (
  "id" INTEGER NOT NULL DEFAULT 1,
  "last" BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT "event_sequence_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "event_sequence_single_row" CHECK ("id" = 1)
);

-- Events recorded before this migration take positions in creation order.
UPDATE "events" AS e SET "seq" = o.n
  FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS n FROM "events") AS o
  WHERE e."id" = o."id";
INSERT INTO "event_sequence" ("id", "last") SELECT 1, COALESCE(MAX("seq"), 0) FROM "events";

CREATE UNIQUE INDEX "events_seq_key" ON "events"("seq");
CREATE INDEX "events_merchant_id_seq_idx" ON "events"("merchant_id", "seq");

-- A merchant's request for a fresh delivery of an event (POST /v1/events/{id}/redeliver): it reaches running
-- listeners through its own position in the feed, and the configured address through a new delivery row.
CREATE TABLE "event_redeliveries" (
  "id" UUID NOT NULL,
  "event_id" UUID NOT NULL,
  "merchant_id" UUID NOT NULL,
  "delivery_id" UUID,
  "seq" BIGINT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "event_redeliveries_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "event_redeliveries_seq_key" ON "event_redeliveries"("seq");
CREATE INDEX "event_redeliveries_merchant_id_seq_idx" ON "event_redeliveries"("merchant_id", "seq");
CREATE INDEX "event_redeliveries_event_id_idx" ON "event_redeliveries"("event_id");
ALTER TABLE "event_redeliveries" ADD CONSTRAINT "event_redeliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- An event may now have more than one delivery (the first, then one per redelivery).
DROP INDEX "deliveries_event_id_key";
CREATE INDEX "deliveries_event_id_idx" ON "deliveries"("event_id");
