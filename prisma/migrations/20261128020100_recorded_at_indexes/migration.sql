-- The console lists a merchant's payments and deliveries in the order they were written (recorded_at DESC NULLS LAST,
-- then created_at and id; docs/operating.md "Times in the console"). These indexes keep that page a short index scan
-- for a merchant with a million rows, as the created_at indexes do for the API's order.
CREATE INDEX "payments_merchant_recorded_idx" ON "payments" ("merchant_id", "recorded_at" DESC NULLS LAST, "created_at" DESC, "id" DESC);
CREATE INDEX "deliveries_merchant_recorded_idx" ON "deliveries" ("merchant_id", "recorded_at" DESC NULLS LAST, "created_at" DESC, "id" DESC);
