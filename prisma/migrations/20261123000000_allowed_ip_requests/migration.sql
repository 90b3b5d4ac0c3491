-- Allow-list requests (docs/architecture.md "Console roles": MERCHANT users manage allow-list requests, OPERATOR staff run
-- merchants). A MERCHANT user's new server IP waits here as PENDING until an operator approves it (it then
-- becomes an allowed_ips row in the same transaction), rejects it with a reason, or the merchant cancels it.

-- CreateEnum
CREATE TYPE "AllowedIpRequestState" AS ENUM ('PENDING', 'APPROVED', 'REJECTED', 'CANCELLED');

-- CreateTable
CREATE TABLE "allowed_ip_requests" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "state" "AllowedIpRequestState" NOT NULL DEFAULT 'PENDING',
    "requested_by_id" UUID NOT NULL,
    "decided_by_id" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "allowed_ip_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "allowed_ip_requests_merchant_id_state_created_at_idx" ON "allowed_ip_requests"("merchant_id", "state", "created_at");

-- AddForeignKey
ALTER TABLE "allowed_ip_requests" ADD CONSTRAINT "allowed_ip_requests_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "allowed_ip_requests" ADD CONSTRAINT "allowed_ip_requests_requested_by_id_fkey" FOREIGN KEY ("requested_by_id") REFERENCES "console_users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "allowed_ip_requests" ADD CONSTRAINT "allowed_ip_requests_decided_by_id_fkey" FOREIGN KEY ("decided_by_id") REFERENCES "console_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- Not expressible in schema.prisma: one PENDING request per merchant and address (this partial index also
-- serves the operators' count of pending requests), a decision exactly when the request is no longer PENDING,
-- and a reason for every rejection.
CREATE UNIQUE INDEX allowed_ip_requests_one_pending_idx ON allowed_ip_requests (merchant_id, address) WHERE state = 'PENDING';
ALTER TABLE allowed_ip_requests ADD CONSTRAINT allowed_ip_requests_decided CHECK ((state = 'PENDING') = (decided_at IS NULL));
ALTER TABLE allowed_ip_requests ADD CONSTRAINT allowed_ip_requests_reject_reason CHECK (state <> 'REJECTED' OR reason IS NOT NULL);
