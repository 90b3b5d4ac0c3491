-- Feed positions per merchant (docs/callbacks.md "Events API", "sandpiper listen"): the cursor a merchant reads
-- counts only its own events and redeliveries, so it tells nothing of other merchants' traffic. The global `seq`
-- stays as the commit order every position follows (and the feed poll's head); `position` is the merchant's count.
CREATE TABLE "event_feed_positions" (
  "merchant_id" UUID NOT NULL,
  "last" BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT "event_feed_positions_pkey" PRIMARY KEY ("merchant_id")
);

ALTER TABLE "events" ADD COLUMN "position" BIGINT;
ALTER TABLE "event_redeliveries" ADD COLUMN "position" BIGINT;

-- Rows recorded before this migration take positions in their commit order, per merchant.
CREATE TEMP TABLE "feed_numbered" AS
  SELECT kind, id, row_number() OVER (PARTITION BY merchant_id ORDER BY seq) AS n FROM (
    SELECT 'event' AS kind, id, merchant_id, seq FROM "events" WHERE seq IS NOT NULL
    UNION ALL
    SELECT 'redelivery', id, merchant_id, seq FROM "event_redeliveries" WHERE seq IS NOT NULL
  ) AS feed;
UPDATE "events" e SET "position" = f.n FROM "feed_numbered" f WHERE f.kind = 'event' AND e.id = f.id;
UPDATE "event_redeliveries" r SET "position" = f.n FROM "feed_numbered" f WHERE f.kind = 'redelivery' AND r.id = f.id;
DROP TABLE "feed_numbered";
INSERT INTO "event_feed_positions" ("merchant_id", "last")
  SELECT merchant_id, max(p) FROM (
    SELECT merchant_id, "position" AS p FROM "events" WHERE "position" IS NOT NULL
    UNION ALL
    SELECT merchant_id, "position" FROM "event_redeliveries" WHERE "position" IS NOT NULL
  ) AS positions GROUP BY merchant_id;

CREATE UNIQUE INDEX "events_merchant_id_position_key" ON "events"("merchant_id", "position");
CREATE UNIQUE INDEX "event_redeliveries_merchant_id_position_key" ON "event_redeliveries"("merchant_id", "position");

-- The feed trigger takes the global position first (its single row lock orders every commit), then the merchant's
-- next one (its row lock is taken under the global one, so never in another order): both become visible in
-- increasing order, and a rollback gives both back.
CREATE OR REPLACE FUNCTION event_feed_assign_seq() RETURNS trigger AS $$
DECLARE
  next_seq bigint;
  next_position bigint;
BEGIN
  UPDATE event_sequence SET last = last + 1 WHERE id = 1 RETURNING last INTO next_seq;
  INSERT INTO event_feed_positions AS p (merchant_id, last) VALUES (NEW.merchant_id, 1)
    ON CONFLICT (merchant_id) DO UPDATE SET last = p.last + 1 RETURNING last INTO next_position;
  EXECUTE format('UPDATE %I SET seq = $1, position = $2 WHERE id = $3', TG_TABLE_NAME) USING next_seq, next_position, NEW.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
