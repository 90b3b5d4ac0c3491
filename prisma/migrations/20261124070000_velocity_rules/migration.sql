-- Velocity rules (docs/api.md "Errors": RISK_REJECTED is a block-list entry or a velocity rule): per merchant, at
-- most N payments or at most an amount per customer member within a fixed window; counters per rule, customer and
-- window, changed in the creating transaction.
CREATE TABLE "risk_rules" (
  "id" UUID NOT NULL,
  "merchant_id" UUID NOT NULL,
  "kind" TEXT NOT NULL,
  "subject" TEXT NOT NULL,
  "window_seconds" INTEGER NOT NULL,
  "max_count" INTEGER,
  "max_amount_minor" BIGINT,
  "currency" TEXT,
  "active" BOOLEAN NOT NULL DEFAULT true,
  "reason" TEXT NOT NULL,
  "created_by_id" UUID,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "removed_at" TIMESTAMPTZ(3),
  CONSTRAINT "risk_rules_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "risk_rules_merchant_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE,
  CONSTRAINT "risk_rules_kind" CHECK ("kind" IN ('COUNT', 'AMOUNT')),
  CONSTRAINT "risk_rules_subject" CHECK ("subject" IN ('CUSTOMER_ID', 'EMAIL', 'PHONE', 'USERNAME')),
  CONSTRAINT "risk_rules_window" CHECK ("window_seconds" BETWEEN 1 AND 2678400),
  CONSTRAINT "risk_rules_bound" CHECK (
    ("kind" = 'COUNT' AND "max_count" >= 1 AND "max_amount_minor" IS NULL AND "currency" IS NULL)
    OR ("kind" = 'AMOUNT' AND "max_amount_minor" >= 1 AND "max_count" IS NULL AND "currency" IS NOT NULL)
  ),
  CONSTRAINT "risk_rules_reason" CHECK (length(btrim("reason")) > 0)
);
CREATE INDEX "risk_rules_merchant_id_active_idx" ON "risk_rules"("merchant_id", "active");

CREATE TABLE "risk_counters" (
  "rule_id" UUID NOT NULL,
  "subject_hash" TEXT NOT NULL,
  "window_start" TIMESTAMPTZ(3) NOT NULL,
  "window_end" TIMESTAMPTZ(3) NOT NULL,
  "n" INTEGER NOT NULL,
  "amount_minor" BIGINT NOT NULL,
  CONSTRAINT "risk_counters_pkey" PRIMARY KEY ("rule_id", "subject_hash", "window_start"),
  CONSTRAINT "risk_counters_rule_fkey" FOREIGN KEY ("rule_id") REFERENCES "risk_rules"("id") ON DELETE CASCADE
);
CREATE INDEX "risk_counters_window_end_idx" ON "risk_counters"("window_end");
