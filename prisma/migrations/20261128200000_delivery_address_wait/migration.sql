-- Deliveries that wait for an address that refuses connections (docs/callbacks.md "An address that refuses
-- connections"). While an address refuses, its due deliveries are moved to the end of the address's wait; a probe
-- that connects releases them at once. Each waiting delivery keeps what it needs for that:
--   waiting_since   the real time the address's refusals in a row began (shown as "waiting: address refused
--                   connections since <time>"); NULL when the delivery is not waiting for its address;
--   own_attempt_at  the time its own retry schedule had given it before it waited: a release makes it due then
--                   (or now, when that has passed), never earlier than its schedule;
--   attempt_asked   the merchant asked for an attempt now (test helper, console): the next claim sends it even
--                   while its address is known to refuse.
-- No default is written into existing rows: both times are NULL, the flag false.
ALTER TABLE "deliveries" ADD COLUMN "waiting_since" TIMESTAMPTZ(3), ADD COLUMN "own_attempt_at" TIMESTAMPTZ(3),
  ADD COLUMN "attempt_asked" BOOLEAN NOT NULL DEFAULT false;

-- A release finds an address's waiting deliveries through their merchants without reading the others.
CREATE INDEX "deliveries_waiting_merchant_idx" ON "deliveries" ("merchant_id") WHERE "waiting_since" IS NOT NULL;
