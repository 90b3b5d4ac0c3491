-- Rotating a `sandpiper listen` secret (docs/callbacks.md "Rotating the secret"): the key's listener secret is derived
-- from its hash and this generation (0: the secret of every key before rotations existed); during an overlap the
-- previous generation keeps signing until previous_listener_secret_until.
ALTER TABLE "api_keys" ADD COLUMN "listener_secret_generation" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "api_keys" ADD COLUMN "previous_listener_secret_until" TIMESTAMPTZ(3);
