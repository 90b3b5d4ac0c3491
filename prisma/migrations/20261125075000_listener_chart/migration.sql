-- The callbacks chart counts an event that a `sandpiper listen` process delivered as received through the listener
-- (outcome LISTENER), not as FAILED or NOT_CONFIGURED (docs/callbacks.md "Forwards on the service"). Whichever
-- comes second moves the count: a delivery that ends FAILED or NOT_CONFIGURED after a listener's 2xx is counted as
-- LISTENER at once; a listener's first 2xx for an event whose delivery had already ended so moves that count from
-- its outcome to LISTENER, on the same Dubai day (the day the delivery ended). Both sides lock the delivery row, so
-- concurrent reports and deliveries count each event once.
ALTER TABLE delivery_day_stats DROP CONSTRAINT IF EXISTS delivery_day_stats_outcome_check;
ALTER TABLE delivery_day_stats ADD CONSTRAINT delivery_day_stats_outcome_check
  CHECK (outcome IN ('FIRST_ATTEMPT', 'AFTER_RETRIES', 'FAILED', 'NOT_CONFIGURED', 'LISTENER'));

CREATE OR REPLACE FUNCTION delivery_outcome_recorded() RETURNS trigger AS $$
DECLARE
  v_outcome text;
  v_day text := dubai_day(now());
  v_latency_ms double precision;
BEGIN
  IF NEW.state NOT IN ('SUCCEEDED', 'FAILED', 'NOT_CONFIGURED') THEN RETURN NULL; END IF;
  IF TG_OP = 'UPDATE' AND OLD.state = NEW.state THEN RETURN NULL; END IF;
  v_outcome := CASE WHEN NEW.state = 'SUCCEEDED' THEN CASE WHEN NEW.attempt_count <= 1 THEN 'FIRST_ATTEMPT' ELSE 'AFTER_RETRIES' END ELSE NEW.state::text END;
  IF v_outcome IN ('FAILED', 'NOT_CONFIGURED')
     AND EXISTS (SELECT 1 FROM listener_forwards lf WHERE lf.event_id = NEW.event_id AND lf.status_code BETWEEN 200 AND 299) THEN
    v_outcome := 'LISTENER';
  END IF;
  INSERT INTO delivery_day_stats AS s (merchant_id, day, outcome, n) VALUES (NEW.merchant_id, v_day, v_outcome, 1)
    ON CONFLICT ON CONSTRAINT delivery_day_stats_pkey DO UPDATE SET n = s.n + 1;
  IF NEW.state = 'SUCCEEDED' THEN
    SELECT extract(epoch FROM (coalesce(NEW.delivered_at, now()) - e.created_at)) * 1000 INTO v_latency_ms FROM events e WHERE e.id = NEW.event_id;
    INSERT INTO delivery_latency_stats AS l (merchant_id, day, bucket, n)
      VALUES (NEW.merchant_id, v_day, least(40, greatest(0, floor(log(2, greatest(coalesce(v_latency_ms, 1), 1)::numeric))))::smallint, 1)
      ON CONFLICT ON CONSTRAINT delivery_latency_stats_pkey DO UPDATE SET n = l.n + 1;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION listener_forward_delivered() RETURNS trigger AS $$
DECLARE
  v_state text;
  v_day text;
BEGIN
  IF NEW.status_code IS NULL OR NEW.status_code NOT BETWEEN 200 AND 299 THEN RETURN NULL; END IF;
  -- Lock the event's delivery first: a delivery ending now, or another report, waits or is waited for.
  SELECT d.state::text, dubai_day(d.updated_at) INTO v_state, v_day
    FROM deliveries d WHERE d.event_id = NEW.event_id ORDER BY d.created_at DESC LIMIT 1 FOR UPDATE;
  IF v_state IS NULL OR v_state NOT IN ('FAILED', 'NOT_CONFIGURED') THEN RETURN NULL; END IF;
  -- Only the event's first 2xx moves the count: a 2xx recorded by another transaction came first; among the rows
  -- of this transaction, the one that started first (then the lower id).
  IF EXISTS (
    SELECT 1 FROM listener_forwards lf
    WHERE lf.event_id = NEW.event_id AND lf.id <> NEW.id AND lf.status_code BETWEEN 200 AND 299
      AND (lf.xmin <> (SELECT x.xmin FROM listener_forwards x WHERE x.id = NEW.id) OR (lf.started_at, lf.id) < (NEW.started_at, NEW.id))
  ) THEN RETURN NULL; END IF;
  UPDATE delivery_day_stats SET n = n - 1 WHERE merchant_id = NEW.merchant_id AND day = v_day AND outcome = v_state AND n > 0;
  IF FOUND THEN
    INSERT INTO delivery_day_stats AS s (merchant_id, day, outcome, n) VALUES (NEW.merchant_id, v_day, 'LISTENER', 1)
      ON CONFLICT ON CONSTRAINT delivery_day_stats_pkey DO UPDATE SET n = s.n + 1;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER listener_forwards_delivered_stats AFTER INSERT ON listener_forwards
  FOR EACH ROW EXECUTE FUNCTION listener_forward_delivered();
