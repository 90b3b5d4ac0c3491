-- A new API key's listener secret is `whsec_` + 44 letters and digits from the start (docs/callbacks.md "Standard
-- Webhooks"): it starts at generation 1, whose secret every Standard Webhooks library reads as printed. Keys made
-- before keep their generation (0 until rotated) and so their secret: receivers configured with it keep working.
ALTER TABLE "api_keys" ALTER COLUMN "listener_secret_generation" SET DEFAULT 1;
