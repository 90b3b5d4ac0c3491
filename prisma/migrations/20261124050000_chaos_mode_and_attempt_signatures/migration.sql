-- Chaos mode (docs/callbacks.md "Chaos mode"): per merchant, off by default. The requests it injects are rows of
-- their own, never delivery attempts.
ALTER TABLE "merchants" ADD COLUMN "chaos_mode" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "chaos_injections" (
  "id" UUID NOT NULL,
  "delivery_id" UUID NOT NULL,
  "event_id" UUID NOT NULL,
  "merchant_id" UUID NOT NULL,
  "kind" TEXT NOT NULL,
  "expected" TEXT NOT NULL,
  "url" TEXT NOT NULL,
  "sent_at" TIMESTAMPTZ(3) NOT NULL,
  "duration_ms" INTEGER NOT NULL,
  "status_code" INTEGER,
  "error" TEXT,
  "response_snippet" TEXT,
  CONSTRAINT "chaos_injections_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "chaos_injections_delivery_id_idx" ON "chaos_injections"("delivery_id");
CREATE INDEX "chaos_injections_merchant_id_sent_at_idx" ON "chaos_injections"("merchant_id", "sent_at");
ALTER TABLE "chaos_injections" ADD CONSTRAINT "chaos_injections_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "deliveries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Signature debugger: what each attempt was signed with (the timestamp header and the signature header, the
-- signed text is timestamp + "." + the event body). The secret is never stored with an attempt.
ALTER TABLE "delivery_attempts" ADD COLUMN "signed_timestamp" TEXT;
ALTER TABLE "delivery_attempts" ADD COLUMN "signature" TEXT;
