-- The sandbox clock (docs/api.md "Sandbox clock"): a merchant's sandbox time runs `clock_offset_ms` ahead of the
-- real clock (0 = the real clock; it only moves forward until reset). A payment created, or expired, while its
-- merchant's clock was moved keeps the offset in force then, shown on the payment.
ALTER TABLE "merchants" ADD COLUMN "clock_offset_ms" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_clock_offset_ms_check" CHECK ("clock_offset_ms" >= 0 AND "clock_offset_ms" <= 315576000000);
ALTER TABLE "payments" ADD COLUMN "clock_offset_ms" BIGINT;
CREATE INDEX "merchants_clock_moved_idx" ON "merchants" ("id") WHERE "clock_offset_ms" <> 0;
