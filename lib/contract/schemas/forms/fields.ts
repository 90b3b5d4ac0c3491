import { z } from "zod";
import { AMOUNT_PATTERN, CURRENCIES, toMinor } from "@/lib/contract/money/currency";

// Field schemas for the console's forms (FormData values are strings): shared by the services that take the
// forms' input, so each field rule is written once.

/** A text field, trimmed; an empty one is refused with "required". */
export const text = (max: number, label = "value") =>
  z
    .string({ message: "required" })
    .trim()
    .min(1, { message: "required" })
    .max(max, { message: `${label} is at most ${max} characters` });

/** An optional text field: empty becomes undefined. */
export const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.string().trim().max(max).optional());

/** A whole number field within [min, max]. */
export const integer = (min: number, max: number) =>
  z
    .string({ message: "required" })
    .trim()
    .regex(/^\d{1,9}$/, { message: "must be a whole number" })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { message: `must be at least ${min}` })
        .max(max, { message: `must be at most ${max}` }),
    );

/** An optional decimal amount (API amount pattern) in minor units; empty = null (no bound / unlimited). */
export const optionalAmountMinor = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v),
  z
    .string()
    .regex(AMOUNT_PATTERN, { message: "must be an amount such as 1000 or 1000.50" })
    .transform((a) => toMinor(a))
    .optional()
    .transform((v) => v ?? null),
);

/** A checkbox: present ("on" or any value) = true, absent = false. */
export const checkbox = z.preprocess((v) => v !== undefined && v !== "" && v !== "false", z.boolean());

/** A checkbox group: zero, one or several values, each from `values`. */
export const checkboxGroup = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.enum(values)));

export const currencyField = z.enum(CURRENCIES, { message: "choose a supported currency" });
export const uuidField = z.uuid({ message: "must be an id" });
/** A required reason for a change (shown in the audit log). */
export const reasonField = text(500, "reason").pipe(z.string().min(3, { message: "give a reason of at least 3 characters" }));
