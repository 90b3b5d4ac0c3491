-- The console's charts, "today" figures and payment list place a payment on the Dubai day it was recorded (real
-- time; docs/operating.md "Times in the console"), while the payment counters are kept by the Dubai day of
-- created_at, the merchant's clock. The two differ only for payments written under a moved sandbox clock (their
-- clock_offset_ms is set): the chart and list totals correct the counters by those payments, found through this
-- small partial index rather than a scan of the merchant's payments.
CREATE INDEX "payments_clock_moved_idx" ON "payments" ("merchant_id") WHERE "clock_offset_ms" IS NOT NULL;
