// What the request log keeps of a request (docs/api.md "Request log"): bodies as sent or answered, the query and the
// Idempotency-Key, with secrets, API keys, bearer tokens, card numbers and customer page links replaced, bodies cut
// to a size cap. Pure; no I/O.

/** Bytes of a body the log keeps (UTF-8); the rest is cut with a marker. */
export const BODY_CAP_BYTES = 8192;

/**
 * Member and query parameter names whose value is a secret or a bearer link wherever they appear: exact names, and
 * names containing password, secret, token, api key, authorization, credential, cvv, cvc or pin forms.
 */
const SECRET_NAMES =
  /^(url|checkoutUrl|storeCheckoutUrl|key|pan|pin|cvv2?|cvc2?|csc|card_?number|cardNumber)$|pass(word|wd|phrase)|^pwd$|secret|token|api[-_]?key|authori[sz]ation|credential|cvv|cvc/i;

/** Secrets inside any text, each with the label it is replaced by. */
const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/sk_sandbox_[A-Za-z0-9]+/g, "[redacted: api key]"],
  [/whsec_[A-Za-z0-9+/_=-]+/g, "[redacted: secret]"],
  [/\bbearer\s+[A-Za-z0-9._~+/=-]+/gi, "[redacted: bearer token]"],
  [/\/(checkout|store)\/[A-Za-z0-9_-]{16,}/g, "[redacted: page link]"],
];

/**
 * A UUID (kept whole: its digit groups are an id, not a card number), or a run of 13 to 19 digits, optionally
 * separated by single spaces or dashes, not inside a longer run of digits (a card number if it passes Luhn).
 */
const UUID_OR_DIGIT_RUN = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|(?<![0-9])[0-9](?:[ -]?[0-9]){12,18}(?![0-9])/gi;
const CARD_LABEL = "[redacted: card number]";
const REDACTED = "[redacted]";

/** True when `digits` (only digits) passes the Luhn check used by card numbers. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * `text` with every API key (`sk_sandbox_...`), `whsec_` secret, bearer token, customer page link and card number
 * (13 to 19 digits passing Luhn, with or without spaces or dashes, outside a UUID) replaced by a label such as
 * `[redacted: api key]`.
 */
export function redactText(text: string): string {
  let kept = text;
  for (const [pattern, label] of SECRET_PATTERNS) kept = kept.replace(pattern, label);
  return kept.replace(UUID_OR_DIGIT_RUN, (run, uuid: string | undefined) => (uuid === undefined && luhnValid(run.replace(/[ -]/g, "")) ? CARD_LABEL : run));
}

/** A parsed JSON value with members named like secrets (not null) redacted, and secrets in names and text replaced. */
function redactValue(value: unknown, name: string | null): unknown {
  if (value === null) return null;
  if (name !== null && typeof value !== "boolean" && SECRET_NAMES.test(name)) return REDACTED;
  if (typeof value === "string") return redactText(value);
  if (typeof value === "number") return redactText(String(value)) === String(value) ? value : CARD_LABEL;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, null));
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([member, inner]) => [redactText(member), redactValue(inner, member)]));
  }
  return value;
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
 * secret, password, token, key, cvv, ...) set to "[redacted]", and any API key, `whsec_` secret, bearer token,
 * card number or customer page link inside a string, a member name or a number replaced ({@link redactText}), then
 * cut to {@link BODY_CAP_BYTES}. Text that is not JSON is kept with the same replacements inside it, and a NUL
 * character as the text `\u0000`. Null and empty text give null.
 * @param text the raw body (UTF-8 text), or null when there was none.
 * @returns the text to store, at most BODY_CAP_BYTES plus a short marker.
 */
export function redactBody(text: string | null, cap = BODY_CAP_BYTES): string | null {
  if (text === null || text.length === 0) return null;
  let kept: string;
  try {
    kept = JSON.stringify(redactValue(JSON.parse(text), null));
  } catch {
    // PostgreSQL text cannot hold NUL: written as the JSON escape it would have in JSON.
    kept = redactText(text).replaceAll("\u0000", "\\u0000");
  }
  return capped(kept, cap);
}

/** `text` percent-decoded as a query component ("+" is a space); the text itself when it is not valid encoding. */
function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/**
 * The query string as the request log keeps it (without the "?"): each parameter named like a secret (password,
 * token, api_key, ...) gets the value `[redacted]`, and a parameter whose decoded name or value holds a secret or a
 * card number ({@link redactText}) is written again, decoded, redacted and encoded; the other parameters are kept as
 * sent. Null and empty text give null.
 */
export function redactQuery(query: string | null): string | null {
  if (!query) return null;
  return query
    .split("&")
    .map((pair) => {
      const at = pair.indexOf("=");
      const rawName = at < 0 ? pair : pair.slice(0, at);
      const name = decodeComponent(rawName);
      const value = at < 0 ? null : decodeComponent(pair.slice(at + 1));
      const safeName = redactText(name);
      if (value !== null && SECRET_NAMES.test(name)) return `${encodeURIComponent(safeName)}=${encodeURIComponent(REDACTED)}`;
      const safeValue = value === null ? null : redactText(value);
      if (safeName === name && safeValue === value && redactText(pair) === pair) return pair;
      return encodeURIComponent(safeName) + (safeValue === null ? "" : `=${encodeURIComponent(safeValue)}`);
    })
    .join("&");
}
