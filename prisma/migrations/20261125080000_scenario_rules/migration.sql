-- Scenario rules (docs/api.md "Scenario rules"): a merchant's sandbox rules that conclude a matching new payment
-- automatically (SUCCEEDED or FAILED after a delay) or leave it to expire. Off by default; the first enabled rule
-- by position wins. A matched payment gets one conclusion row, written in the payment's own statement.
CREATE TABLE "scenario_rules" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "merchant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL,
    "match_amount" NUMERIC(18,2),
    "match_reference_prefix" TEXT,
    "match_method" "PaymentMethod",
    "match_direction" "PaymentDirection",
    "match_currency" TEXT,
    "outcome" TEXT NOT NULL,
    "delay_ms" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- A deleted rule is kept (disabled, hidden from lists), so a repeated DELETE answers as the first did and the
    -- payments it matched keep naming it.
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "scenario_rules_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "scenario_rules_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "scenario_rules_outcome_check" CHECK ("outcome" IN ('SUCCEEDED', 'FAILED', 'EXPIRE')),
    CONSTRAINT "scenario_rules_delay_check" CHECK ("delay_ms" BETWEEN 0 AND 3600000),
    CONSTRAINT "scenario_rules_match_check" CHECK ("match_amount" IS NOT NULL OR "match_reference_prefix" IS NOT NULL),
    CONSTRAINT "scenario_rules_deleted_check" CHECK ("deleted_at" IS NULL OR NOT "enabled")
);

CREATE INDEX "scenario_rules_merchant_id_position_idx" ON "scenario_rules"("merchant_id", "position");
-- The create path reads only enabled rules: a merchant without any costs one index probe.
CREATE INDEX "scenario_rules_enabled_idx" ON "scenario_rules"("merchant_id", "position") WHERE "enabled";

CREATE TABLE "scenario_conclusions" (
    "payment_id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "rule_name" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "delay_ms" INTEGER NOT NULL,
    "due_at" TIMESTAMPTZ(3),
    "done_at" TIMESTAMPTZ(3),
    "result" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scenario_conclusions_pkey" PRIMARY KEY ("payment_id"),
    CONSTRAINT "scenario_conclusions_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "scenario_conclusions_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "scenario_rules"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "scenario_conclusions_outcome_check" CHECK ("outcome" IN ('SUCCEEDED', 'FAILED', 'EXPIRE'))
);

-- The conclusion job claims due rows by this index (pending ones only).
CREATE INDEX "scenario_conclusions_due_idx" ON "scenario_conclusions"("due_at") WHERE "done_at" IS NULL AND "due_at" IS NOT NULL;
