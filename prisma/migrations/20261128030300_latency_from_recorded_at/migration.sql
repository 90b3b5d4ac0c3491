-- The callbacks chart's latency (event recorded -> 2xx answer) is measured on the real clock (docs/architecture.md
-- "Which clock a column holds"): deliveries keep the real clock, while an event's created_at is the merchant's sandbox
-- time, so under a moved clock the difference was negative and every delivery counted in the lowest bucket. The
-- latency now runs from the event's recorded_at (real time; created_at for events from before it was kept). The rest
-- of the function is as 20261125075000_listener_chart left it.
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
    SELECT extract(epoch FROM (coalesce(NEW.delivered_at, now()) - coalesce(e.recorded_at, e.created_at))) * 1000 INTO v_latency_ms
      FROM events e WHERE e.id = NEW.event_id;
    INSERT INTO delivery_latency_stats AS l (merchant_id, day, bucket, n)
      VALUES (NEW.merchant_id, v_day, least(40, greatest(0, floor(log(2, greatest(coalesce(v_latency_ms, 1), 1)::numeric))))::smallint, 1)
      ON CONFLICT ON CONSTRAINT delivery_latency_stats_pkey DO UPDATE SET n = l.n + 1;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
