import fc from "fast-check";
import { luhnValid } from "@/lib/platform/redaction/redact";

// The secrets the redaction rule must catch (lib/platform/redaction/redact.ts; docs/operating.md "Secrets in logs and traces"),
// generated in the variants it promises, and the check that none survives in a text that left the service.

/** What a card number's digits may be separated by. */
export const CARD_SEPARATORS = ["", " ", "\u00A0", "-", ".", "_", "/"] as const;

/** A Luhn-valid card number: `body` (its length - 1 digits) and the check digit. */
export function luhnCard(body: string): string {
  for (let check = 0; check <= 9; check++) if (luhnValid(body + check)) return body + check;
  throw new Error("unreachable");
}

/** `digits` written with `separator` every 4 digits, in full-width digits (U+FF10 to U+FF19) when `fullWidth`. */
export function written(digits: string, separator: string, fullWidth = false): string {
  const grouped = digits.replace(/(\d{4})(?=\d)/g, `$1${separator}`);
  return fullWidth ? grouped.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))) : grouped;
}

/** A card number of 13 to 19 digits, with any one separator, in ASCII or full-width digits. */
export const cardNumber = fc
  .tuple(fc.integer({ min: 13, max: 19 }), fc.constantFrom(...CARD_SEPARATORS), fc.boolean())
  .chain(([n, separator, fullWidth]) => fc.stringMatching(new RegExp(`^[1-9][0-9]{${n - 2}}$`)).map((body) => written(luhnCard(body), separator, fullWidth)));

const alnum = fc.stringMatching(/^[A-Za-z0-9]{20,43}$/);
/** An API key, a `whsec_` secret or a card number ({@link cardNumber}). */
export const secret = fc.oneof(
  alnum.map((s) => `sk_sandbox_${s}`),
  alnum.map((s) => `whsec_${s}`),
  cardNumber,
);

/**
 * Text a card number may stand after: nothing, letters, an id that ends in a digit and a hyphen (`sec-a4cfe7-`), a
 * path; never a digit right before it (that would make it another number).
 */
export const before = fc.constantFrom("", "x", "ref ", "sec-a4cfe7-", "/v1/payments/", "card:", "n=", "(", "\u00A0");
/** Text a card number may stand before: never a digit right after it. */
export const after = fc.constantFrom("", "x", " end", "-x", ".", "/a", ")", "\u00A0z");

/** `text` with separators removed and full-width digits as ASCII: where a card number's digits would show joined. */
function joined(text: string): string {
  return text.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xff10 + 48)).replace(/[ \u00A0\u2007\u202F\-._/]/g, "");
}

/** `text` percent-decoded ("+" a space), or itself when it does not decode. */
function unescaped(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/**
 * The `secrets` that `stored` still holds: an API key or `whsec_` secret as written (also percent-encoded), a card
 * number's digits in any writing (separators dropped, full-width digits read as ASCII). Empty when none survived.
 */
export function leaks(stored: string, secrets: readonly string[]): string[] {
  const texts = [stored, unescaped(stored)];
  return secrets.filter((s) => {
    const digits = joined(s);
    const isCard = /^[0-9]{13,19}$/.test(digits);
    return texts.some((t) => (isCard ? joined(t).includes(digits) : t.includes(s)));
  });
}
