-- Console charts (docs/architecture.md "Consistency"): the counters the charts read, kept by triggers in the
-- writing transaction so no chart ever scans the payments or deliveries of a period.
--
-- 1. Payment counts carry volume: the sum of the amounts (minor units of the payment's currency) and of the AED
--    charge (minor units of AED: the amount of an AED payment, or the snapshot's gateway figure when the payment
--    is charged in AED) next to each count.
ALTER TABLE payment_counts ADD COLUMN amount_minor BIGINT NOT NULL DEFAULT 0, ADD COLUMN charged_aed_minor BIGINT NOT NULL DEFAULT 0;
ALTER TABLE payment_count_deltas ADD COLUMN amount_minor BIGINT NOT NULL DEFAULT 0, ADD COLUMN charged_aed_minor BIGINT NOT NULL DEFAULT 0;

-- The AED charge of a payment in minor units: its amount when it is in AED, the snapshot's `gateway` when it is
-- charged in AED, else 0.
CREATE OR REPLACE FUNCTION charged_aed_minor(currency text, amount_minor bigint, pricing jsonb) RETURNS bigint AS $$
  SELECT CASE
    WHEN currency = 'AED' THEN amount_minor
    WHEN pricing ->> 'chargeCurrency' = 'AED' THEN (pricing ->> 'gateway')::bigint
    ELSE 0
  END
$$ LANGUAGE sql IMMUTABLE;

CREATE OR REPLACE FUNCTION payment_counts_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payment_count_deltas (merchant_id, day, status, method, direction, currency, delta, amount_minor, charged_aed_minor)
      SELECT merchant_id, dubai_day(created_at), status, method, direction, currency, count(*), sum(amount_minor),
             sum(charged_aed_minor(currency, amount_minor, pricing))
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO payment_count_deltas (merchant_id, day, status, method, direction, currency, delta, amount_minor, charged_aed_minor)
      SELECT merchant_id, dubai_day(created_at), status, method, direction, currency, -count(*), -sum(amount_minor),
             -sum(charged_aed_minor(currency, amount_minor, pricing))
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6;
  ELSE
    INSERT INTO payment_count_deltas (merchant_id, day, status, method, direction, currency, delta, amount_minor, charged_aed_minor)
      SELECT merchant_id, day, status, method, direction, currency, sum(delta), sum(amount), sum(aed)
      FROM (
        SELECT merchant_id, dubai_day(created_at) AS day, status, method, direction, currency, -1 AS delta,
               -amount_minor AS amount, -charged_aed_minor(currency, amount_minor, pricing) AS aed FROM old_rows
        UNION ALL
        SELECT merchant_id, dubai_day(created_at) AS day, status, method, direction, currency, 1 AS delta,
               amount_minor AS amount, charged_aed_minor(currency, amount_minor, pricing) AS aed FROM new_rows
      ) AS changes
      GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(delta) <> 0 OR sum(amount) <> 0 OR sum(aed) <> 0;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Existing counters are computed again with their sums (writers wait meanwhile, so none is missed).
DO $$
BEGIN
  LOCK TABLE payments IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM payment_count_deltas;
  DELETE FROM payment_counts;
  INSERT INTO payment_counts (merchant_id, day, status, method, direction, currency, n, amount_minor, charged_aed_minor)
    SELECT merchant_id, d.day, status, method, direction, currency, count(*), sum(amount_minor), sum(charged_aed_minor(currency, amount_minor, pricing))
    FROM payments, LATERAL (VALUES (dubai_day(created_at)), ('*')) AS d(day) GROUP BY 1, 2, 3, 4, 5, 6;
END;
$$;

-- 2. Callback outcomes per merchant and Dubai day of the outcome: delivered at the first attempt, delivered after
--    retries, FAILED, NOT_CONFIGURED; and the latency of delivered ones (event created -> 2xx answer) as a
--    histogram of powers of two in milliseconds (bucket b counts latencies in [2^b, 2^(b+1)) ms; bucket 0 also
--    holds anything under 1 ms).
CREATE TABLE delivery_day_stats (
  merchant_id UUID NOT NULL,
  day TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('FIRST_ATTEMPT', 'AFTER_RETRIES', 'FAILED', 'NOT_CONFIGURED')),
  n BIGINT NOT NULL,
  CONSTRAINT delivery_day_stats_pkey PRIMARY KEY (merchant_id, day, outcome)
);
CREATE INDEX delivery_day_stats_day_idx ON delivery_day_stats (day);
CREATE TABLE delivery_latency_stats (
  merchant_id UUID NOT NULL,
  day TEXT NOT NULL,
  bucket SMALLINT NOT NULL CHECK (bucket BETWEEN 0 AND 40),
  n BIGINT NOT NULL,
  CONSTRAINT delivery_latency_stats_pkey PRIMARY KEY (merchant_id, day, bucket)
);
CREATE INDEX delivery_latency_stats_day_idx ON delivery_latency_stats (day);

CREATE OR REPLACE FUNCTION delivery_outcome_recorded() RETURNS trigger AS $$
DECLARE
  v_outcome text;
  v_day text := dubai_day(now());
  v_latency_ms double precision;
BEGIN
  IF NEW.state NOT IN ('SUCCEEDED', 'FAILED', 'NOT_CONFIGURED') THEN RETURN NULL; END IF;
  IF TG_OP = 'UPDATE' AND OLD.state = NEW.state THEN RETURN NULL; END IF;
  v_outcome := CASE WHEN NEW.state = 'SUCCEEDED' THEN CASE WHEN NEW.attempt_count <= 1 THEN 'FIRST_ATTEMPT' ELSE 'AFTER_RETRIES' END ELSE NEW.state::text END;
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

DROP TRIGGER IF EXISTS deliveries_outcome_stats ON deliveries;
CREATE TRIGGER deliveries_outcome_stats AFTER INSERT OR UPDATE OF state ON deliveries
  FOR EACH ROW EXECUTE FUNCTION delivery_outcome_recorded();
CREATE INDEX IF NOT EXISTS payment_counts_day_idx ON payment_counts (day);
