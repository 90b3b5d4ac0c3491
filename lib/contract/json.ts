// How the service writes JSON (docs/api.md "Conventions"): money never becomes a JS number, so a bigint is written as a
// string. Used by every answer (lib/application/http/respond.ts) and by the event payloads the outbox stores.

/** JSON.stringify that writes bigint as a string (money never becomes a JS number). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
}
