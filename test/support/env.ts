/** The integration database: a local PostgreSQL only (a guard refuses anything else). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_it";

/** Refuses to run tests against a database that is not on this machine. */
export function assertLocalDatabase(url: string): void {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]", ""].includes(host)) {
    throw new Error(`refusing to run tests against a non-local database (${host})`);
  }
}
