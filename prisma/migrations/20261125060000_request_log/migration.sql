-- The request log (docs/api.md "Request log"): every /v1 request of an authenticated key, written in batches
-- off the request's path and pruned after REQUEST_LOG_RETENTION_DAYS.
CREATE TABLE "request_logs" (
    "request_id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "query" TEXT,
    "status" INTEGER NOT NULL,
    "error_code" TEXT,
    "idempotency_key" TEXT,
    "replayed" BOOLEAN NOT NULL DEFAULT false,
    "latency_ms" INTEGER NOT NULL,
    "request_body" TEXT,
    "response_body" TEXT,
    "resource_type" TEXT,
    "resource_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "request_logs_pkey" PRIMARY KEY ("request_id")
);

CREATE INDEX "request_logs_merchant_id_created_at_idx" ON "request_logs"("merchant_id", "created_at" DESC);
CREATE INDEX "request_logs_created_at_idx" ON "request_logs"("created_at");
