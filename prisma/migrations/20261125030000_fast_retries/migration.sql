-- Fast retries (docs/callbacks.md "Fast retries"): per merchant, off by default. When on, the callback schedule's
-- 8 attempts run with every wait divided by 60 (seconds instead of minutes); lib/contract/callbacks/retry-schedule.ts.
ALTER TABLE "merchants" ADD COLUMN "fast_retries" BOOLEAN NOT NULL DEFAULT false;
