// The one redaction rule of every text that leaves the service (docs/operating.md "Secrets in logs and traces"): the
// request log (docs/api.md "Request log"), the stdout log (lib/platform/log.ts), span attributes and events (lib/platform/tracing) and
// error messages (lib/application/http/respond.ts). Secrets, API keys, bearer tokens, card numbers and customer page links are
// replaced by a label; bodies are cut to a size cap. Pure; no I/O; imports nothing.

/** Bytes of a body the log keeps (UTF-8); the rest is cut with a marker. */
export const BODY_CAP_BYTES = 8192;

/**
 * Member, parameter, header and attribute names whose value is a secret or a bearer link wherever they appear: exact
 * names, and names containing password, secret, token, api key, authorization, credential, cookie, cvv, cvc or pin forms.
 */
const SECRET_NAMES =
  /^(url|checkoutUrl|storeCheckoutUrl|key|pan|pin|cvv2?|cvc2?|csc|card_?number|cardNumber)$|pass(word|wd|phrase)|^pwd$|secret|token|api[-_]?key|authori[sz]ation|credential|cookie|cvv|cvc/i;

/** True when a member, parameter, header or attribute called `name` holds a secret or a bearer link. */
export function isSecretName(name: string): boolean {
  return SECRET_NAMES.test(name);
}

/** Secrets inside any text, each with the label it is replaced by and a cheap test of whether the text may hold one. */
const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string, (text: string) => boolean]> = [
  [/sk_sandbox_[A-Za-z0-9]+/g, "[redacted: api key]", (text) => text.includes("sk_sandbox_")],
  [/whsec_[A-Za-z0-9+/_=-]+/g, "[redacted: secret]", (text) => text.includes("whsec_")],
  [/\bbearer\s+[A-Za-z0-9._~+/=-]+/gi, "[redacted: bearer token]", (text) => /bearer/i.test(text)],
  [/\/(checkout|store)\/[A-Za-z0-9_-]{16,}/g, "[redacted: page link]", (text) => text.includes("/checkout/") || text.includes("/store/")],
];

/**
 * A secret-named member or parameter inside text that is not parsed: `"name": value` (JSON, also cut short or
 * malformed: the value is a string, closed or not, or a bare word) and `name=value` (a query, a form body, a log
 * line). Group 1/2: a quoted name and its value; group 3/4: a `name=` and its value.
 */
const ASSIGNMENT = /"([^"\\]{1,64})"\s*:\s*("(?:[^"\\]|\\.)*"?|[^\s,}\]{["]+)|(?<![\w.-])([A-Za-z_][\w.-]{0,63})=([^&\s#"]*)/g;

/** Digits a card number is written with: ASCII and full-width (U+FF10 to U+FF19). */
const DIGIT = "0-9\\uFF10-\\uFF19";
/** What may stand between a card number's digits: space, no-break spaces, hyphen, dot, underscore, slash (up to 3). */
const SEPARATOR = " \\u00A0\\u2007\\u202F\\-._/";
/**
 * A UUID (kept whole: its digit groups are an id, not a card number), or a run of digits joined by separators, not
 * inside a longer run of digits; each run is searched for card numbers by {@link redactRun}.
 */
const UUID_OR_DIGIT_RUN = new RegExp(
  `([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|(?<![${DIGIT}])[${DIGIT}](?:[${SEPARATOR}]{0,3}[${DIGIT}])*`,
  "gi",
);
const DIGIT_GROUP = new RegExp(`[${DIGIT}]+`, "g");
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

/** `group` (ASCII or full-width digits) as ASCII digits. */
function asciiDigits(group: string): string {
  return group.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xff10 + 48));
}

/**
 * `run` (digits joined by separators) with every card number in it replaced: a card number is 13 to 19 digits passing
 * Luhn that start at a group's first digit and end at a group's last (a group: digits without a separator), so one
 * standing after `7-` in `sec-a4cfe7-4242424242424242` is found; from each start the longest is taken.
 */
function redactRun(run: string): string {
  if (digitsUpTo(run, 13) < 13) return run;
  const groups = [...run.matchAll(DIGIT_GROUP)].map((m) => ({ start: m.index, end: m.index + m[0].length, digits: asciiDigits(m[0]) }));
  if (groups.reduce((n, g) => n + g.digits.length, 0) < 13) return run;
  let kept = "";
  let from = 0;
  for (let i = 0; i < groups.length; i++) {
    let digits = "";
    let last: { index: number; end: number } | null = null;
    for (let j = i, group = groups[j]; group && digits.length + group.digits.length <= 19; group = groups[++j]) {
      digits += group.digits;
      if (digits.length >= 13 && luhnValid(digits)) last = { index: j, end: group.end };
    }
    const first = groups[i];
    if (!last || !first) continue;
    kept += run.slice(from, first.start) + CARD_LABEL;
    from = last.end;
    i = last.index;
  }
  return kept + run.slice(from);
}

/** How many digits (ASCII or full-width) `text` holds, counting up to `enough`. */
function digitsUpTo(text: string, enough: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count < enough; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 48 && code <= 57) || (code >= 0xff10 && code <= 0xff19)) count++;
  }
  return count;
}

/**
 * Matches in any text that holds an assignment ({@link ASSIGNMENT}: `=` or `"`) or one of {@link SECRET_PATTERNS}
 * (case aside); a text it does not match holds neither, so its one scan stands for theirs in the common case (an id,
 * a time, an amount, a member name).
 */
const MAY_HOLD_WORDS = /[="]|sk_sandbox_|whsec_|bearer|\/(?:checkout|store)\//i;

/** `text` with the patterns, secret-named assignments and card numbers replaced (no decoding). */
function redactPlain(text: string): string {
  let kept = text;
  if (MAY_HOLD_WORDS.test(kept)) {
    if (kept.includes("=") || kept.includes('"')) {
      kept = kept.replace(ASSIGNMENT, (whole, quoted: string | undefined, _value, name: string | undefined, value: string | undefined) => {
        if (quoted !== undefined) return isSecretName(quoted) ? `"${quoted}":"${REDACTED}"` : whole;
        return name !== undefined && value !== "" && isSecretName(name) ? `${name}=${REDACTED}` : whole;
      });
    }
    for (const [pattern, label, mayHold] of SECRET_PATTERNS) if (mayHold(kept)) kept = kept.replace(pattern, label);
  }
  if (digitsUpTo(kept, 13) < 13) return kept;
  return kept.replace(UUID_OR_DIGIT_RUN, (run, uuid: string | undefined) => (uuid === undefined ? redactRun(run) : run));
}

/**
 * A whole text that holds nothing {@link redactText} replaces, whatever the rules: a UUID (kept whole by the card
 * search) or an ISO-8601 time with at most 6 fraction digits (no run of digits and separators in it reaches 13
 * digits). The ids and times of every answer and log line skip the scans.
 */
const PLAIN_VALUE =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2}))$/i;

/** `text` percent-decoded as a query component ("+" is a space); null when it is not valid encoding or has none. */
function decoded(text: string): string | null {
  if (!/%[0-9a-f]{2}|\+/i.test(text)) return null;
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/**
 * `text` with every API key (`sk_sandbox_...`), `whsec_` secret, bearer token, customer page link, value of a
 * secret-named member or parameter (`"password":"..."`, `api_key=...`, in valid JSON or not) and card number replaced
 * by a label such as `[redacted: api key]`. A card number is 13 to 19 digits passing Luhn, ASCII or full-width,
 * written whole or with spaces, no-break spaces, hyphens, dots, underscores or slashes between them, wherever it
 * stands (after a letter, after `7-`, ...), outside a UUID. Text that is percent-encoded (a URL, a query) and holds a
 * secret once decoded is returned decoded and redacted.
 */
export function redactText(text: string): string {
  if (PLAIN_VALUE.test(text)) return text;
  const plain = redactPlain(text);
  // Decoded after the first pass: a secret-named parameter's whole value is already gone (its %20 kept it one word).
  const unescaped = decoded(plain);
  if (unescaped === null || unescaped === plain) return plain;
  const redacted = redactPlain(unescaped);
  return redacted === unescaped ? plain : redacted;
}

/** Objects, arrays and errors are walked this deep; deeper values are replaced by `[redacted: too deep]`. */
const MAX_DEPTH = 12;

/**
 * A copy of `value` fit to leave the service: every member named like a secret ({@link isSecretName}; not null, not a
 * boolean) is `"[redacted]"`, every string, member name and number goes through {@link redactText} (a number that
 * holds a card number becomes the label), an Error becomes `{ type, message, stack }` redacted the same way, an object
 * with `toJSON` (a URL) what that gives, redacted. Dates and other values are kept. For the request log's JSON bodies, the stdout log's fields and span attributes.
 */
export function redactValue(value: unknown, name: string | null = null, depth = 0): unknown {
  if (value === null || value === undefined) return value;
  if (name !== null && typeof value !== "boolean" && isSecretName(name)) return REDACTED;
  if (typeof value === "string") return redactText(value);
  if (typeof value === "number" || typeof value === "bigint") return redactText(String(value)) === String(value) ? value : CARD_LABEL;
  if (typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[redacted: too deep]";
  if (value instanceof Error) {
    const { cause } = value as { cause?: unknown };
    return redactValue({ ...value, type: value.name, message: value.message, stack: value.stack, ...(cause === undefined ? {} : { cause }) }, null, depth + 1);
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, null, depth + 1));
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) {
    // A URL, a Decimal, ...: what JSON would write of it, redacted; a Date and other values are kept.
    const { toJSON } = value as { toJSON?: () => unknown };
    return typeof toJSON === "function" && !(value instanceof Date) ? redactValue(toJSON.call(value), name, depth + 1) : value;
  }
  return Object.fromEntries(Object.entries(value).map(([member, inner]) => [redactText(member), redactValue(inner, member, depth + 1)]));
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
 * card number or customer page link inside a string, a member name or a number replaced ({@link redactValue}), then
 * cut to {@link BODY_CAP_BYTES}. Text that is not JSON (malformed, cut short, a form) is kept with the same
 * replacements inside it ({@link redactText}: `"cvv":"987"` and `password=...` included), and a NUL character as the
 * text `\u0000`. Null and empty text give null.
 * @param text the raw body (UTF-8 text), or null when there was none.
 * @returns the text to store, at most BODY_CAP_BYTES plus a short marker.
 */
export function redactBody(text: string | null, cap = BODY_CAP_BYTES): string | null {
  if (text === null || text.length === 0) return null;
  let kept: string;
  try {
    kept = JSON.stringify(redactValue(JSON.parse(text)));
  } catch {
    // PostgreSQL text cannot hold NUL: written as the JSON escape it would have in JSON.
    kept = redactText(text).replaceAll("\u0000", "\\u0000");
  }
  return capped(kept, cap);
}

/** `text` percent-decoded as a query component ("+" is a space); the text itself when it is not valid encoding. */
function decodeComponent(text: string): string {
  return decoded(text) ?? text;
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
      if (value !== null && isSecretName(name)) return `${encodeURIComponent(safeName)}=${encodeURIComponent(REDACTED)}`;
      const safeValue = value === null ? null : redactText(value);
      if (safeName === name && safeValue === value && redactText(pair) === pair) return pair;
      return encodeURIComponent(safeName) + (safeValue === null ? "" : `=${encodeURIComponent(safeValue)}`);
    })
    .join("&");
}
