-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "MerchantStatus" AS ENUM ('ACTIVE', 'INACTIVE');

-- CreateEnum
CREATE TYPE "ConsoleRole" AS ENUM ('OPERATOR', 'MERCHANT');

-- CreateEnum
CREATE TYPE "PaymentMethod" AS ENUM ('BANK_TRANSFER', 'GATEWAY');

-- CreateEnum
CREATE TYPE "PaymentDirection" AS ENUM ('DEPOSIT', 'WITHDRAWAL');

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('PENDING_APPROVAL', 'PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED');

-- CreateEnum
CREATE TYPE "PaymentKind" AS ENUM ('STANDARD', 'STORE');

-- CreateEnum
CREATE TYPE "CheckoutState" AS ENUM ('QUEUED', 'READY', 'REJECTED', 'SUCCEEDED', 'FAILED', 'EXPIRED');

-- CreateEnum
CREATE TYPE "CheckoutSessionState" AS ENUM ('AWAITING_AMOUNT', 'QUOTED', 'AWAITING_VERIFICATION', 'EXPIRED');

-- CreateEnum
CREATE TYPE "DeliveryState" AS ENUM ('PENDING', 'SUCCEEDED', 'FAILED', 'NOT_CONFIGURED');

-- CreateEnum
CREATE TYPE "CatalogItemKind" AS ENUM ('PRODUCT', 'PACKAGE');

-- CreateTable
CREATE TABLE "merchants" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "status" "MerchantStatus" NOT NULL DEFAULT 'INACTIVE',
    "enabled_currencies" TEXT[],
    "bank_transfer_deposit_minutes" INTEGER NOT NULL DEFAULT 60,
    "gateway_deposit_minutes" INTEGER NOT NULL DEFAULT 30,
    "withdrawal_approval_minutes" INTEGER NOT NULL DEFAULT 1440,
    "store_checkout_minutes" INTEGER NOT NULL DEFAULT 30,
    "checkout_session_minutes" INTEGER NOT NULL DEFAULT 30,
    "required_customer_fields" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "store_requires_country" BOOLEAN NOT NULL DEFAULT false,
    "amount_entry_enabled" BOOLEAN NOT NULL DEFAULT false,
    "default_commission_bps" INTEGER NOT NULL DEFAULT 0,
    "callback_url" TEXT,
    "callback_secret" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "merchants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "console_users" (
    "id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "ConsoleRole" NOT NULL,
    "merchant_id" UUID,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "failed_logins" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "console_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT[],
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "allowed_ips" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "allowed_ips_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pricing_profiles" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "channel" "PaymentMethod" NOT NULL,
    "direction" "PaymentDirection" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pricing_profiles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pricing_profile_versions" (
    "id" UUID NOT NULL,
    "profile_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "charge_currency" TEXT NOT NULL,
    "settlement_currency" TEXT NOT NULL,
    "markup_bps" INTEGER NOT NULL,
    "buffer_bps" INTEGER NOT NULL,
    "commission_bps" INTEGER,
    "commission_fixed_minor" BIGINT,
    "reserve_bps" INTEGER NOT NULL DEFAULT 0,
    "delay_days" INTEGER NOT NULL DEFAULT 0,
    "reserve_days" INTEGER NOT NULL DEFAULT 0,
    "min_amount_minor" BIGINT,
    "max_amount_minor" BIGINT,
    "daily_limit_minor" BIGINT,
    "monthly_limit_minor" BIGINT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "reason" TEXT NOT NULL,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pricing_profile_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fx_rates" (
    "id" UUID NOT NULL,
    "base" TEXT NOT NULL,
    "quote" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "rate" TEXT NOT NULL,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "fx_rates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bank_accounts" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "iban" TEXT NOT NULL,
    "bank_name" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "daily_capacity" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bank_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bank_account_usage" (
    "bank_account_id" UUID NOT NULL,
    "day" TEXT NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "bank_account_usage_pkey" PRIMARY KEY ("bank_account_id","day")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "reference" TEXT NOT NULL,
    "kind" "PaymentKind" NOT NULL DEFAULT 'STANDARD',
    "amount_minor" BIGINT NOT NULL,
    "fee_minor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "method" "PaymentMethod" NOT NULL,
    "direction" "PaymentDirection" NOT NULL,
    "status" "PaymentStatus" NOT NULL,
    "pricing" JSONB,
    "limit_profile_id" UUID,
    "business_day" TEXT NOT NULL,
    "bank_account_id" UUID,
    "description" TEXT,
    "customer" JSONB,
    "created_by_id" UUID,
    "api_key_id" UUID,
    "approved_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "approved_at" TIMESTAMPTZ(3),
    "finalized_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "store_checkouts" (
    "payment_id" UUID NOT NULL,
    "state" "CheckoutState" NOT NULL,
    "charge_minor" BIGINT NOT NULL,
    "token" TEXT,
    "subtotal_minor" BIGINT,
    "discount_minor" BIGINT,
    "match_type" TEXT,
    "lines" JSONB,
    "error" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "handoff_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_handoff_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "store_checkouts_pkey" PRIMARY KEY ("payment_id")
);

-- CreateTable
CREATE TABLE "catalog_items" (
    "id" UUID NOT NULL,
    "sku" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "CatalogItemKind" NOT NULL,
    "price_minor" BIGINT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalog_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "checkout_sessions" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "reference" TEXT NOT NULL,
    "customer" JSONB NOT NULL,
    "state" "CheckoutSessionState" NOT NULL,
    "token" TEXT NOT NULL,
    "amount_minor" BIGINT,
    "currency" TEXT,
    "quote" JSONB,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "quoted_at" TIMESTAMPTZ(3),
    "confirmed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkout_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "body_hash" TEXT NOT NULL,
    "response_status" INTEGER NOT NULL,
    "response_body" JSONB NOT NULL,
    "resource_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "limit_counters" (
    "profile_id" UUID NOT NULL,
    "period" TEXT NOT NULL,
    "used_minor" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "limit_counters_pkey" PRIMARY KEY ("profile_id","period")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" UUID NOT NULL,
    "payment_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_lines" (
    "id" UUID NOT NULL,
    "entry_id" UUID NOT NULL,
    "account" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount_minor" BIGINT NOT NULL,

    CONSTRAINT "ledger_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "payment_id" UUID,
    "type" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deliveries" (
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "state" "DeliveryState" NOT NULL,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "lease_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery_attempts" (
    "id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "response_snippet" TEXT,

    CONSTRAINT "delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "block_list" (
    "id" UUID NOT NULL,
    "merchant_id" UUID,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "block_list_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settings" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "settings_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" UUID NOT NULL,
    "actor_id" UUID,
    "actor_name" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "entity" TEXT NOT NULL,
    "entity_id" TEXT,
    "merchant_id" UUID,
    "before" JSONB,
    "after" JSONB,
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "console_users_username_key" ON "console_users"("username");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_merchant_id_idx" ON "api_keys"("merchant_id");

-- CreateIndex
CREATE UNIQUE INDEX "allowed_ips_merchant_id_address_key" ON "allowed_ips"("merchant_id", "address");

-- CreateIndex
CREATE UNIQUE INDEX "pricing_profiles_merchant_id_currency_channel_direction_key" ON "pricing_profiles"("merchant_id", "currency", "channel", "direction");

-- CreateIndex
CREATE UNIQUE INDEX "pricing_profile_versions_profile_id_version_key" ON "pricing_profile_versions"("profile_id", "version");

-- CreateIndex
CREATE UNIQUE INDEX "fx_rates_base_quote_day_key" ON "fx_rates"("base", "quote", "day");

-- CreateIndex
CREATE INDEX "payments_merchant_id_created_at_id_idx" ON "payments"("merchant_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "payments_merchant_id_status_created_at_idx" ON "payments"("merchant_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "payments_status_expires_at_idx" ON "payments"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "payments_merchant_id_reference_key" ON "payments"("merchant_id", "reference");

-- CreateIndex
CREATE UNIQUE INDEX "store_checkouts_token_key" ON "store_checkouts"("token");

-- CreateIndex
CREATE INDEX "store_checkouts_state_next_handoff_at_idx" ON "store_checkouts"("state", "next_handoff_at");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_items_sku_key" ON "catalog_items"("sku");

-- CreateIndex
CREATE UNIQUE INDEX "checkout_sessions_token_key" ON "checkout_sessions"("token");

-- CreateIndex
CREATE INDEX "checkout_sessions_state_expires_at_idx" ON "checkout_sessions"("state", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "checkout_sessions_merchant_id_reference_key" ON "checkout_sessions"("merchant_id", "reference");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_records_merchant_id_key_key" ON "idempotency_records"("merchant_id", "key");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_payment_id_kind_key" ON "ledger_entries"("payment_id", "kind");

-- CreateIndex
CREATE INDEX "ledger_lines_entry_id_idx" ON "ledger_lines"("entry_id");

-- CreateIndex
CREATE INDEX "events_merchant_id_created_at_idx" ON "events"("merchant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "events_payment_id_type_key" ON "events"("payment_id", "type");

-- CreateIndex
CREATE UNIQUE INDEX "deliveries_event_id_key" ON "deliveries"("event_id");

-- CreateIndex
CREATE INDEX "deliveries_state_next_attempt_at_idx" ON "deliveries"("state", "next_attempt_at");

-- CreateIndex
CREATE INDEX "deliveries_merchant_id_created_at_idx" ON "deliveries"("merchant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "delivery_attempts_delivery_id_number_key" ON "delivery_attempts"("delivery_id", "number");

-- CreateIndex
CREATE INDEX "block_list_kind_value_idx" ON "block_list"("kind", "value");

-- CreateIndex
CREATE INDEX "audit_log_created_at_idx" ON "audit_log"("created_at");

-- AddForeignKey
ALTER TABLE "console_users" ADD CONSTRAINT "console_users_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "console_users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "allowed_ips" ADD CONSTRAINT "allowed_ips_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pricing_profiles" ADD CONSTRAINT "pricing_profiles_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pricing_profile_versions" ADD CONSTRAINT "pricing_profile_versions_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "pricing_profiles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bank_account_usage" ADD CONSTRAINT "bank_account_usage_bank_account_id_fkey" FOREIGN KEY ("bank_account_id") REFERENCES "bank_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "store_checkouts" ADD CONSTRAINT "store_checkouts_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_lines" ADD CONSTRAINT "ledger_lines_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "ledger_entries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "deliveries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Money sanity.
ALTER TABLE payments ADD CONSTRAINT payments_amount_positive CHECK (amount_minor > 0);
ALTER TABLE payments ADD CONSTRAINT payments_fee_nonnegative CHECK (fee_minor >= 0);
ALTER TABLE limit_counters ADD CONSTRAINT limit_counters_nonnegative CHECK (used_minor >= 0);

-- Filtered lists: reference search.
CREATE INDEX payments_merchant_reference_idx ON payments (merchant_id, reference text_pattern_ops);
