// What the request log keeps of a body (docs/api.md "Request log"): the JSON as sent or answered, with secrets,
// API keys and bearer links replaced by "[redacted]", cut to a size cap. Pure; no I/O.

/** Bytes of a body the log keeps (UTF-8); the rest is cut with a marker. */
export const BODY_CAP_BYTES = 8192;

/** Members whose value is a secret or a bearer link wherever they appear. */
const SECRET_MEMBERS = /^(url|checkoutUrl|storeCheckoutUrl|secret|callbackSecret|signingSecret|password|token|apiKey|key|authorization)$/i;
/** Secrets and bearer links inside any string: API keys, callback and listener secrets, customer page links. */
const SECRET_TEXT = /sk_sandbox_[A-Za-z0-9]+|whsec_[A-Za-z0-9_-]+|\/(checkout|store)\/[A-Za-z0-9_-]{16,}/g;

const REDACTED = "[redacted]";

/**
 * The JSON.stringify replacer that redacts: a member named like a secret (and not null) becomes "[redacted]" whatever
 * its value; any other string has the secrets inside it replaced. Array elements have numeric keys, so only their text is
 * checked. Redacting while the text is written avoids building a second copy of the body.
 */
function redactMember(key: string, value: unknown): unknown {
  if (value !== null && SECRET_MEMBERS.test(key)) return REDACTED;
  return typeof value === "string" ? value.replace(SECRET_TEXT, REDACTED) : value;
}

/** `text` cut to `cap` bytes of UTF-8 (never inside a character), with a marker saying how much was cut. */
function capped(text: string, cap: number): string {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= cap) return text;
  let cut = Buffer.from(text, "utf8").subarray(0, cap).toString("utf8");
  if (cut.endsWith("\uFFFD")) cut = cut.slice(0, -1);
  return `${cut}...[cut: ${bytes - Buffer.byteLength(cut, "utf8")} more bytes]`;
}

/**
 * The body as the request log keeps it: JSON text with every member named like a secret or bearer link (url,
 * secret, password, token, key, ...) set to "[redacted]" and any API key, `whsec_` secret or customer page link
 * inside a string replaced, then cut to {@link BODY_CAP_BYTES}. Text that is not JSON is kept with the same
 * replacements inside it, and a NUL character as the text `\u0000`. Null and empty text give null.
 * @param text the raw body (UTF-8 text), or null when there was none.
 * @returns the text to store, at most BODY_CAP_BYTES plus a short marker.
 */
export function redactBody(text: string | null, cap = BODY_CAP_BYTES): string | null {
  if (text === null || text.length === 0) return null;
  let kept: string;
  try {
    kept = JSON.stringify(JSON.parse(text), redactMember);
  } catch {
    // PostgreSQL text cannot hold NUL: written as the JSON escape it would have in JSON.
    kept = text.replace(SECRET_TEXT, REDACTED).replaceAll("\u0000", "\\u0000");
  }
  return capped(kept, cap);
}
