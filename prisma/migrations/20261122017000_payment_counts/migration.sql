-- Exact list totals without a COUNT(*) over a merchant's history (GET /v1/payments over 1,000,000
-- payments). The statement trigger that fills payment_count_deltas, and the first backfill, are in
-- prisma/migrations/20261124055000_database_guards/migration.sql (plpgsql), applied in one transaction with the trigger.

-- CreateTable
CREATE TABLE "payment_counts" (
    "merchant_id" UUID NOT NULL,
    "day" TEXT NOT NULL,
    "status" "PaymentStatus" NOT NULL,
    "method" "PaymentMethod" NOT NULL,
    "direction" "PaymentDirection" NOT NULL,
    "currency" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "payment_counts_pkey" PRIMARY KEY ("merchant_id","day","status","method","direction","currency")
);

-- CreateTable
CREATE TABLE "payment_count_deltas" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" UUID NOT NULL,
    "day" TEXT NOT NULL,
    "status" "PaymentStatus" NOT NULL,
    "method" "PaymentMethod" NOT NULL,
    "direction" "PaymentDirection" NOT NULL,
    "currency" TEXT NOT NULL,
    "delta" BIGINT NOT NULL,

    CONSTRAINT "payment_count_deltas_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payment_count_deltas_merchant_id_idx" ON "payment_count_deltas"("merchant_id");
