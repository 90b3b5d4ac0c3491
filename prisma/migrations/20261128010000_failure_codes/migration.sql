-- Failure codes (docs/api.md "Failure codes"): why a FAILED payment failed, when the completion or the scenario rule
-- that concluded it named a code. Nullable: a payment concluded without a code has none, exactly as before. The codes
-- themselves are one table in code (lib/contract/schemas/failure-codes.ts); the database only keeps a code to FAILED.
ALTER TABLE "payments" ADD COLUMN "failure_code" TEXT;
ALTER TABLE "payments" ADD CONSTRAINT "payments_failure_code_check" CHECK ("failure_code" IS NULL OR "status" = 'FAILED');

ALTER TABLE "scenario_rules" ADD COLUMN "failure_code" TEXT;
ALTER TABLE "scenario_rules" ADD CONSTRAINT "scenario_rules_failure_code_check" CHECK ("failure_code" IS NULL OR "outcome" = 'FAILED');

-- A matched payment's conclusion keeps the rule's code as it was at creation, like its name and outcome.
ALTER TABLE "scenario_conclusions" ADD COLUMN "failure_code" TEXT;
ALTER TABLE "scenario_conclusions" ADD CONSTRAINT "scenario_conclusions_failure_code_check" CHECK ("failure_code" IS NULL OR "outcome" = 'FAILED');
