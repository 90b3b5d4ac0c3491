-- Console sign-out ends the user's sessions on the server: a session is valid only while the epoch it was
-- issued under is the user's current one (lib/application/console/session.ts), and signing out increments it.
ALTER TABLE "console_users" ADD COLUMN "session_epoch" INTEGER NOT NULL DEFAULT 0;
