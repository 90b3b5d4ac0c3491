import { z } from "zod";
import { AMOUNT_PATTERN, CURRENCIES } from "@/lib/contract/money/currency";

/**
 * Characters that change how the text around them is read without being seen: the bidirectional embeddings,
 * overrides and isolates (U+202A to U+202E, U+2066 to U+2069) and the line and paragraph separators (U+2028,
 * U+2029). docs/api.md "Conventions" (text members) and docs/decisions/0206-merchant-text-without-direction-controls.md.
 */
export const MISLEADING_TEXT = /[\u202A-\u202E\u2066-\u2069\u2028\u2029]/;

/** What a refused member's error says (after the member's name: "reference: must not contain ..."). */
export const MISLEADING_TEXT_MESSAGE =
  "must not contain bidirectional control characters (U+202A to U+202E, U+2066 to U+2069) or line or paragraph separators (U+2028, U+2029); send the text without them";

/**
 * The one refinement of every merchant-supplied free text member of a request body (references, names,
 * descriptions): `text` as given, refused when it holds a character of {@link MISLEADING_TEXT}, so that what the
 * customer pages and the console show reads as it was written. Used as `merchantText(z.string().max(120))`.
 * @param schema a string schema (its other checks stay as they are).
 * @returns the same schema with the refinement; a refused value is a 400 VALIDATION_ERROR naming the member
 *   (lib/application/http/validation.ts), like NUL and lone surrogates (docs/decisions/0047-*.md).
 */
export function merchantText<T extends z.ZodString>(schema: T): T {
  return schema.refine((text) => !MISLEADING_TEXT.test(text), { message: MISLEADING_TEXT_MESSAGE }) as T;
}

/** A customer member sent blank ("" or only white space): the same as not sent (docs/api.md "Customer"). */
const Blank = z.string().regex(/^\s*$/, { message: "blank" });
/** A customer member with a format: the format, or blank (= missing; a required one answers CUSTOMER_PROFILE_REQUIRED). */
const formatted = <T extends z.ZodType>(schema: T) => z.union([schema, Blank]).optional();

/**
 * docs/api.md "Customer": every member optional in the schema; additional properties rejected. A blank member
 * ("" or white space) counts as missing: a required one answers 400 CUSTOMER_PROFILE_REQUIRED, an optional one
 * is left out.
 */
export const Customer = z.strictObject({
  id: merchantText(z.string().max(120)).optional().describe("Your stable customer identifier (merchant UID), at most 120 characters."),
  email: formatted(z.email({ message: "must be a valid e-mail address" }).max(254, { message: "must be at most 254 characters" })).describe(
    "E-mail address, at most 254 characters. Malformed: 400 INVALID_EMAIL.",
  ),
  phone: formatted(z.string().regex(/^\+[1-9][0-9]{7,14}$/, { message: "must be in international format with country code, e.g. +971501234567" })).describe(
    "Phone in international format with the country code, e.g. +971501234567. Not verified.",
  ),
  ip: formatted(z.union([z.ipv4(), z.ipv6()], { message: "must be an IPv4 or IPv6 address" })).describe(
    "The customer's device IP (your declaration; unrelated to your server allow-list).",
  ),
  country: formatted(z.string().regex(/^[A-Z]{2}$/, { message: "must be an ISO 3166-1 alpha-2 code, e.g. AE" })).describe(
    "ISO 3166-1 alpha-2 country code, e.g. AE (your declaration; not verified).",
  ),
  username: merchantText(z.string().max(120))
    .optional()
    .describe("The customer's user name with you, at most 120 characters; a store payment's stable customer reference when id is absent."),
  firstName: merchantText(z.string().max(120)).optional().describe("Given name, at most 120 characters."),
  lastName: merchantText(z.string().max(120)).optional().describe("Family name, at most 120 characters."),
});
export type Customer = z.infer<typeof Customer>;

export const Amount = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? undefined
        : `send amounts as decimal strings, e.g. "1123.52" (got ${issue.input === null ? "null" : typeof issue.input === "number" ? "a JSON number" : typeof issue.input === "object" ? "an object" : `a ${typeof issue.input}`})`,
  })
  .regex(AMOUNT_PATTERN, { message: 'must be a decimal string with up to 10 integer digits and 2 decimals, e.g. "1123.52"' });
export const CurrencyCode = z.enum(CURRENCIES);
/** A merchant's reference (order id), 1 to 120 characters, without the characters of {@link MISLEADING_TEXT}. */
export const Reference = merchantText(z.string().min(1).max(120));
/** A merchant's free description, at most 500 characters, without the characters of {@link MISLEADING_TEXT}. */
export const Description = merchantText(z.string().max(500));
export const Uuid = z.uuid();

/** What every return address's description ends with (docs/api.md "Returning to your site"). */
const NO_PROOF =
  "https (http on this machine only in local mode), at most 2,048 characters. A customer's return through it is no proof of payment and carries no status: confirm the result by a verified callback or an authenticated read.";
/**
 * The customer pages' return addresses (docs/api.md "Returning to your site"): checked by the domain
 * (lib/domain/addresses/return-url.ts, 400 VALIDATION_ERROR naming the member), never read from a query string.
 */
export const ReturnAddresses = {
  returnUrl: z
    .string()
    .max(2048)
    .optional()
    .describe(`Where "Return to <your name>" on the customer's ending page leads (your console's default when absent): ${NO_PROOF}`),
  cancelUrl: z
    .string()
    .max(2048)
    .optional()
    .describe(`Where the customer leaves to without paying (declined, expired, or left from the open page); returnUrl when absent: ${NO_PROOF}`),
};

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * True when `text` has the form of a UUID (8-4-4-4-12 hex digits, any case): the one check made before an id from a
 * path, a query or a form is sent to the database, so arbitrary text is never cast to uuid (it is answered as not
 * found instead).
 */
export function isUuid(text: string | null | undefined): text is string {
  return typeof text === "string" && UUID_TEXT.test(text);
}

/** Response currencies: docs/api.md types them as strings; they are ISO 4217 codes. */
export const CurrencyText = z.string().regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 currency code" });
/** Response timestamps: ISO 8601 in UTC (docs/api.md "Conventions"). */
export const Timestamp = z.iso.datetime({ offset: false });
