-- Listener forwards (docs/callbacks.md "Forwards on the service"): every attempt a `sandpiper listen` process made
-- to bring an event to the developer's receiver, as the listener reported it. Never a delivery or an attempt of one.
CREATE TABLE "listener_forwards" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "merchant_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "forward_id" UUID NOT NULL,
    "cursor" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "forward_to" TEXT NOT NULL,
    "signed_timestamp" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "response_snippet" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "listener_forwards_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "listener_forwards_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE UNIQUE INDEX "listener_forwards_forward_id_attempt_key" ON "listener_forwards"("forward_id", "attempt");
CREATE INDEX "listener_forwards_event_id_idx" ON "listener_forwards"("event_id");
CREATE INDEX "listener_forwards_merchant_id_created_at_idx" ON "listener_forwards"("merchant_id", "created_at");
