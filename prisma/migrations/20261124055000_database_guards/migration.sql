-- Database guards: triggers and functions that keep the data honest whatever code writes it. Written so that it
-- also applies to a database that already has them (CREATE OR REPLACE, DROP TRIGGER IF EXISTS): installations
-- that had these guards from an earlier start-up script get the same objects.

-- Ledger: the lines of an entry sum to zero per currency, checked at commit.
CREATE OR REPLACE FUNCTION ledger_entry_balanced() RETURNS trigger AS $$
DECLARE
  unbalanced RECORD;
BEGIN
  SELECT currency, SUM(amount_minor) AS total INTO unbalanced
    FROM ledger_lines WHERE entry_id = NEW.entry_id
    GROUP BY currency HAVING SUM(amount_minor) <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger entry % is not balanced in % (sum %)', NEW.entry_id, unbalanced.currency, unbalanced.total;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS ledger_lines_balanced ON ledger_lines;
CREATE CONSTRAINT TRIGGER ledger_lines_balanced
  AFTER INSERT OR UPDATE ON ledger_lines
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_entry_balanced();

-- Append-only and immutable tables: any UPDATE or DELETE raises the trigger's message.
CREATE OR REPLACE FUNCTION refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '%', TG_ARGV[0];
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS ledger_lines_no_change ON ledger_lines;
CREATE TRIGGER ledger_lines_no_change BEFORE UPDATE OR DELETE ON ledger_lines
  FOR EACH ROW EXECUTE FUNCTION refuse_change('ledger lines are append-only');

DROP TRIGGER IF EXISTS audit_log_no_change ON audit_log;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION refuse_change('audit log is append-only');

DROP TRIGGER IF EXISTS pricing_versions_no_change ON pricing_profile_versions;
CREATE TRIGGER pricing_versions_no_change BEFORE UPDATE OR DELETE ON pricing_profile_versions
  FOR EACH ROW EXECUTE FUNCTION refuse_change('pricing profile versions are immutable; save a new version');


-- Payment counts (GET /v1/payments `total`): every statement that inserts, updates or deletes payments adds
-- its count changes to payment_count_deltas, grouped by merchant, Dubai (UTC+4) day of created_at, status,
-- method, direction and currency, in the same transaction. Append-only: concurrent payments never wait on a
-- shared counter row. lib/domain/payments/counts.ts compacts deltas into payment_counts (per day, and all-time under
-- day '*') and sums both.
-- The Dubai (UTC+4, no daylight saving) calendar day of an instant, as lib/contract/money/dubai.ts computes it.
CREATE OR REPLACE FUNCTION dubai_day(instant timestamptz) RETURNS text AS $$
  SELECT to_char((instant AT TIME ZONE 'UTC') + interval '4 hours', 'YYYY-MM-DD')
$$ LANGUAGE sql IMMUTABLE;

CREATE OR REPLACE FUNCTION payment_counts_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payment_count_deltas (merchant_id, day, status, method, direction, currency, delta)
      SELECT merchant_id, dubai_day(created_at), status, method, direction, currency, count(*)
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO payment_count_deltas (merchant_id, day, status, method, direction, currency, delta)
      SELECT merchant_id, dubai_day(created_at), status, method, direction, currency, -count(*)
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6;
  ELSE
    INSERT INTO payment_count_deltas (merchant_id, day, status, method, direction, currency, delta)
      SELECT merchant_id, day, status, method, direction, currency, sum(delta)
      FROM (
        SELECT merchant_id, dubai_day(created_at) AS day, status, method, direction, currency, -1 AS delta FROM old_rows
        UNION ALL
        SELECT merchant_id, dubai_day(created_at) AS day, status, method, direction, currency, 1 AS delta FROM new_rows
      ) AS changes
      GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(delta) <> 0;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Store catalog version: every statement that changes catalog_items bumps the counter in settings row
-- 'catalog-version' in the same transaction; the store's prepared matching index is cached per version.
CREATE OR REPLACE FUNCTION bump_catalog_version() RETURNS trigger AS $$
BEGIN
  INSERT INTO settings (key, value, updated_at) VALUES ('catalog-version', '1'::jsonb, now())
  ON CONFLICT (key) DO UPDATE SET value = to_jsonb((settings.value #>> '{}')::bigint + 1), updated_at = now();
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- First installation: writers wait while the counts of existing payments are computed, so none is missed.
DO $$
BEGIN
  LOCK TABLE payments IN SHARE ROW EXCLUSIVE MODE;
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'payments_counts_insert') THEN
    DELETE FROM payment_count_deltas;
    DELETE FROM payment_counts;
    INSERT INTO payment_counts (merchant_id, day, status, method, direction, currency, n)
      SELECT merchant_id, day, status, method, direction, currency, count(*)
      FROM payments, LATERAL (VALUES (dubai_day(created_at)), ('*')) AS d(day) GROUP BY 1, 2, 3, 4, 5, 6;
  END IF;
END;
$$;

DROP TRIGGER IF EXISTS payments_counts_insert ON payments;
CREATE TRIGGER payments_counts_insert AFTER INSERT ON payments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_counts_changed();
DROP TRIGGER IF EXISTS payments_counts_update ON payments;
CREATE TRIGGER payments_counts_update AFTER UPDATE ON payments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_counts_changed();
DROP TRIGGER IF EXISTS payments_counts_delete ON payments;
CREATE TRIGGER payments_counts_delete AFTER DELETE ON payments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_counts_changed();

DROP TRIGGER IF EXISTS catalog_items_version ON catalog_items;
CREATE TRIGGER catalog_items_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON catalog_items
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_version();

-- Event feed in commit order (docs/callbacks.md "Events API"): each new event and each redelivery takes the
-- next position from the single event_sequence row at COMMIT (a deferred constraint trigger runs after
-- every other statement of its transaction). The row lock is held until the commit is visible, so positions
-- become visible in increasing order: a follower that has read position n never later finds a new row below
-- n, however long the writing transaction took. A rollback gives its positions back (no gaps from aborts).
CREATE OR REPLACE FUNCTION event_feed_assign_seq() RETURNS trigger AS $$
DECLARE
  next_seq bigint;
BEGIN
  UPDATE event_sequence SET last = last + 1 WHERE id = 1 RETURNING last INTO next_seq;
  EXECUTE format('UPDATE %I SET seq = $1 WHERE id = $2', TG_TABLE_NAME) USING next_seq, NEW.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

INSERT INTO event_sequence (id, last) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;

DROP TRIGGER IF EXISTS event_feed_seq ON events;
CREATE CONSTRAINT TRIGGER event_feed_seq AFTER INSERT ON events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION event_feed_assign_seq();
DROP TRIGGER IF EXISTS event_redelivery_feed_seq ON event_redeliveries;
CREATE CONSTRAINT TRIGGER event_redelivery_feed_seq AFTER INSERT ON event_redeliveries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION event_feed_assign_seq();
