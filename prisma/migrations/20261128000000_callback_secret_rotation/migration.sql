-- Callback secret rotation with an overlap (docs/callbacks.md "Rotating the secret"): the secret being replaced and
-- when it stops signing. Both null outside an overlap.
ALTER TABLE "merchants" ADD COLUMN "previous_callback_secret" TEXT;
ALTER TABLE "merchants" ADD COLUMN "previous_callback_secret_until" TIMESTAMPTZ(3);
