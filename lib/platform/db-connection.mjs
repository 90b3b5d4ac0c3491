// Reaching a start's PostgreSQL database: where DATABASE_URL points (for messages), one line that says why a
// connection failed and what to do, and the console session secret every instance of a database shares
// (docs/operating.md "Scaling"). It imports nothing of the project, so server.mjs and scripts/db.mjs both use it
// (server.mjs sits below the scripts, which import it).
import { randomBytes } from "node:crypto";
import os from "node:os";
import pg from "pg";

/** Where a DATABASE_URL points, for messages: host, port, database and role (never the password). */
export function databaseTarget(databaseUrl) {
  const url = new URL(databaseUrl);
  const user = decodeURIComponent(url.username) || process.env.PGUSER || os.userInfo().username;
  return { host: url.hostname || "localhost", port: url.port || "5432", name: decodeURIComponent(url.pathname.slice(1)) || user, user };
}

/** A database that a start or a migration cannot use; `message` is one line to print (never the password). */
export class DatabaseUnusableError extends Error {}
/** Thrown by ensureDatabase when the database is missing and cannot be created here; `message` is one line to print. */
export class MissingDatabaseError extends DatabaseUnusableError {}

/** How long a start waits for PostgreSQL to accept a connection before it says so, in milliseconds. */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * One line that says why a connection to `databaseUrl` failed and what to do, naming host, port, database and role
 * (never the password): nothing listening, a host that does not resolve, no answer in time, a wrong password, an
 * unknown role or one pg_hba.conf does not let in; anything else with PostgreSQL's own message.
 * @param error what pg's `Client.connect()` threw (a socket error with `code`, or a PostgreSQL error with SQLSTATE `code`)
 */
export function connectionProblem(error, databaseUrl) {
  const { host, port, name, user } = databaseTarget(databaseUrl);
  const where = `${host}:${port}`;
  const code = error?.code;
  const text = String(error?.message ?? error);
  const lead = "Sandpiper cannot use DATABASE_URL:";
  if (code === "ECONNREFUSED")
    return `${lead} nothing accepts connections on ${where} (database "${name}"). Start PostgreSQL there, or correct the host and port in DATABASE_URL.`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `${lead} the host "${host}" does not resolve (port ${port}, database "${name}"). Correct the host in DATABASE_URL.`;
  if (["ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"].includes(code) || /timeout/i.test(text))
    return `${lead} ${where} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s (database "${name}"). Check that PostgreSQL runs there and that this machine may reach it.`;
  if (code === "28P01")
    return `${lead} PostgreSQL on ${where} refused the password of role "${user}" (database "${name}"). Correct the password in DATABASE_URL, or set the role's: ALTER ROLE "${user}" PASSWORD '...';`;
  if (code === "28000" && /role .* does not exist/.test(text))
    return `${lead} PostgreSQL on ${where} has no role "${user}" (database "${name}"). Correct the user in DATABASE_URL, or create the role: createuser -h ${host} -p ${port} -U postgres --login ${user}`;
  if (code === "28000")
    return `${lead} PostgreSQL on ${where} does not let role "${user}" connect to database "${name}" (${text}). Allow it in pg_hba.conf, or correct DATABASE_URL.`;
  const password = decodeURIComponent(new URL(databaseUrl).password);
  const said = password ? text.replaceAll(password, "[redacted]") : text;
  return `${lead} PostgreSQL on ${where} (database "${name}", role "${user}") refused the connection: ${said}.`;
}

/** The settings row of the generated console session secret (docs/operating.md "Scaling"). */
const AUTH_SECRET_SETTING = "nextauth-secret";
/** Shortest console session secret, in bytes of UTF-8 (lib/platform/config.ts refuses a shorter NEXTAUTH_SECRET). */
const MIN_AUTH_SECRET_BYTES = 32;

/**
 * The console session secret every instance of the database `databaseUrl` shares, for a start without NEXTAUTH_SECRET
 * (docs/operating.md "Scaling"): the settings row `nextauth-secret`, made by the first instance to get here, as the
 * store handoff key is. The first one stores `carried` when it is a usable secret (the data folder's
 * `nextauth-secret` of an earlier version, so its sessions survive the upgrade), else 32 random bytes (base64url);
 * every later start reads the stored one. One connection, two statements.
 * @param carried an earlier secret to keep, or null
 * @returns the secret (text of at least 32 bytes, no spaces)
 * @throws DatabaseUnusableError with one line when the database cannot be reached or is not migrated
 */
export async function sharedAuthSecret(databaseUrl, carried = null) {
  const usable = carried !== null && Buffer.byteLength(carried, "utf8") >= MIN_AUTH_SECRET_BYTES && !/\s/.test(carried);
  const candidate = usable ? carried : randomBytes(32).toString("base64url");
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
  } catch (error) {
    throw new DatabaseUnusableError(connectionProblem(error, databaseUrl));
  }
  try {
    await client.query("INSERT INTO settings (key, value, updated_at) VALUES ($1, $2::jsonb, now()) ON CONFLICT (key) DO NOTHING", [
      AUTH_SECRET_SETTING,
      JSON.stringify({ secret: candidate }),
    ]);
    const { rows } = await client.query("SELECT value->>'secret' AS secret FROM settings WHERE key = $1", [AUTH_SECRET_SETTING]);
    const secret = rows[0]?.secret;
    if (typeof secret !== "string" || Buffer.byteLength(secret, "utf8") < MIN_AUTH_SECRET_BYTES || /\s/.test(secret)) {
      throw new DatabaseUnusableError(
        `Sandpiper cannot start: the settings row "${AUTH_SECRET_SETTING}" holds no usable console session secret. Delete the row (every console session ends) or set NEXTAUTH_SECRET.`,
      );
    }
    return secret;
  } catch (error) {
    if (error.code === "42P01")
      throw new DatabaseUnusableError(
        "Sandpiper cannot start: the database is not migrated (no settings table). Run npm run db:migrate, or start with npm start.",
      );
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}
