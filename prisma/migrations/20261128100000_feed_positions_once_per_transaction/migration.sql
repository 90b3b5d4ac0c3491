-- Feed positions taken once per transaction (docs/callbacks.md "Commit order"). The deferred trigger used to run for
-- each new event and redelivery at COMMIT: three statements per row, two of them updating the same counter rows
-- (`event_sequence`, the merchant's `event_feed_positions`) again and again, so each firing walked the row versions
-- the earlier firings of the transaction had left: a batch of 500 expiries spent about a third of its database time
-- in its COMMIT, and 2,000 events in one transaction ten times more per event than 50.
--
-- Now the first firing of a transaction numbers all of the transaction's unnumbered events and redeliveries in one
-- statement, in the order they were inserted, and writes each counter once; the later firings find their row
-- numbered and return. Rows are found by two columns every insert fills in by default: `feed_tx` (the inserting
-- transaction's id) and `feed_order` (a sequence: the insertion order across both tables), through a partial index
-- of unnumbered rows led by `feed_tx`, so a transaction reads only its own entries. Locks, order and rollback are as
-- before: the global row first, held until the commit is visible, then the merchants' rows in merchant order; a
-- rollback gives every number back. A row whose `feed_tx` is not the committing transaction's (a copy made by hand)
-- is still numbered by its own firing.
CREATE SEQUENCE "feed_insert_order";

-- Without defaults first: existing rows keep NULL and the table is not rewritten; every committed row is numbered.
ALTER TABLE "events" ADD COLUMN "feed_tx" BIGINT, ADD COLUMN "feed_order" BIGINT;
ALTER TABLE "event_redeliveries" ADD COLUMN "feed_tx" BIGINT, ADD COLUMN "feed_order" BIGINT;
ALTER TABLE "events" ALTER COLUMN "feed_tx" SET DEFAULT txid_current(), ALTER COLUMN "feed_order" SET DEFAULT nextval('feed_insert_order');
ALTER TABLE "event_redeliveries" ALTER COLUMN "feed_tx" SET DEFAULT txid_current(), ALTER COLUMN "feed_order" SET DEFAULT nextval('feed_insert_order');

CREATE INDEX "events_feed_unnumbered_idx" ON "events" ("feed_tx", "feed_order") WHERE "seq" IS NULL;
CREATE INDEX "event_redeliveries_feed_unnumbered_idx" ON "event_redeliveries" ("feed_tx", "feed_order") WHERE "seq" IS NULL;

CREATE OR REPLACE FUNCTION event_feed_assign_seq() RETURNS trigger AS $$
DECLARE
  tx bigint := txid_current();
  numbered bigint;
  base bigint;
  total bigint;
  next_seq bigint;
  next_position bigint;
BEGIN
  -- An earlier firing of this transaction numbered this row with the others.
  IF TG_TABLE_NAME = 'events' THEN
    SELECT seq INTO numbered FROM events WHERE id = NEW.id;
  ELSE
    SELECT seq INTO numbered FROM event_redeliveries WHERE id = NEW.id;
  END IF;
  IF numbered IS NOT NULL THEN
    RETURN NULL;
  END IF;

  SELECT last INTO base FROM event_sequence WHERE id = 1 FOR UPDATE;
  WITH mine AS (
    SELECT 'events'::text AS tbl, id, merchant_id, feed_order FROM events WHERE feed_tx = tx AND seq IS NULL
    UNION ALL
    SELECT 'event_redeliveries'::text, id, merchant_id, feed_order FROM event_redeliveries WHERE feed_tx = tx AND seq IS NULL
  ), ranked AS (
    SELECT tbl, id, merchant_id,
           row_number() OVER (ORDER BY feed_order NULLS LAST, id) AS n,
           row_number() OVER (PARTITION BY merchant_id ORDER BY feed_order NULLS LAST, id) AS k,
           count(*) OVER (PARTITION BY merchant_id) AS of_merchant
    FROM mine
  ), positions AS (
    INSERT INTO event_feed_positions AS p (merchant_id, last)
    SELECT merchant_id, count(*) FROM mine GROUP BY merchant_id ORDER BY merchant_id
    ON CONFLICT (merchant_id) DO UPDATE SET last = p.last + EXCLUDED.last
    RETURNING merchant_id, last
  ), numbered_events AS (
    UPDATE events t SET seq = base + r.n, position = pos.last - r.of_merchant + r.k
    FROM ranked r JOIN positions pos ON pos.merchant_id = r.merchant_id
    WHERE r.tbl = 'events' AND t.id = r.id
    RETURNING 1
  ), numbered_redeliveries AS (
    UPDATE event_redeliveries t SET seq = base + r.n, position = pos.last - r.of_merchant + r.k
    FROM ranked r JOIN positions pos ON pos.merchant_id = r.merchant_id
    WHERE r.tbl = 'event_redeliveries' AND t.id = r.id
    RETURNING 1
  )
  SELECT count(*) INTO total FROM ranked;
  UPDATE event_sequence SET last = base + total WHERE id = 1;

  -- A row the search above did not find (its feed_tx is not this transaction's): numbered alone, as before.
  IF TG_TABLE_NAME = 'events' THEN
    SELECT seq INTO numbered FROM events WHERE id = NEW.id;
  ELSE
    SELECT seq INTO numbered FROM event_redeliveries WHERE id = NEW.id;
  END IF;
  IF numbered IS NULL THEN
    UPDATE event_sequence SET last = last + 1 WHERE id = 1 RETURNING last INTO next_seq;
    INSERT INTO event_feed_positions AS p (merchant_id, last) VALUES (NEW.merchant_id, 1)
      ON CONFLICT (merchant_id) DO UPDATE SET last = p.last + 1 RETURNING last INTO next_position;
    EXECUTE format('UPDATE %I SET seq = $1, position = $2 WHERE id = $3', TG_TABLE_NAME) USING next_seq, next_position, NEW.id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Events written by the service itself (lib/domain/events/outbox.ts `recordEvents`: transitions, the expiry sweep)
-- take their numbers as they are inserted, through this function, in one round trip: the global row is locked first
-- (then the merchants' rows, in merchant order, as above) and stays locked until the commit is visible, so commit
-- order holds exactly as with the trigger, and the rows are written once instead of inserted and then updated (half
-- the write-ahead log of an expiry batch's events). The triggers below fire only for rows inserted without a number
-- (redeliveries, copies made by hand).
CREATE OR REPLACE FUNCTION insert_numbered_events(ids uuid[], merchant_ids uuid[], payment_ids uuid[], types text[], bodies text[], created timestamptz[])
RETURNS void AS $$
DECLARE
  total bigint := cardinality(ids);
  base bigint;
BEGIN
  IF total = 0 THEN
    RETURN;
  END IF;
  UPDATE event_sequence SET last = last + total WHERE id = 1 RETURNING last - total INTO base;
  WITH input AS (
    SELECT i.*, row_number() OVER (PARTITION BY i.merchant_id ORDER BY i.n) AS k, count(*) OVER (PARTITION BY i.merchant_id) AS of_merchant
    FROM unnest(ids, merchant_ids, payment_ids, types, bodies, created) WITH ORDINALITY AS i(id, merchant_id, payment_id, type, body, created_at, n)
  ), positions AS (
    INSERT INTO event_feed_positions AS p (merchant_id, last)
    SELECT merchant_id, count(*) FROM input GROUP BY merchant_id ORDER BY merchant_id
    ON CONFLICT (merchant_id) DO UPDATE SET last = p.last + EXCLUDED.last
    RETURNING merchant_id, last
  )
  INSERT INTO events (id, merchant_id, payment_id, type, body, created_at, seq, position)
  SELECT i.id, i.merchant_id, i.payment_id, i.type, i.body, i.created_at, base + i.n, pos.last - i.of_merchant + i.k
  FROM input i JOIN positions pos ON pos.merchant_id = i.merchant_id
  ORDER BY i.n;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS event_feed_seq ON events;
CREATE CONSTRAINT TRIGGER event_feed_seq AFTER INSERT ON events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION event_feed_assign_seq();
DROP TRIGGER IF EXISTS event_redelivery_feed_seq ON event_redeliveries;
CREATE CONSTRAINT TRIGGER event_redelivery_feed_seq AFTER INSERT ON event_redeliveries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION event_feed_assign_seq();
