import { z } from "zod";
import { AMOUNT_PATTERN, CURRENCIES } from "@/lib/money/currency";

/** SPEC "Customer object": every member optional in the schema; additional properties rejected. */
export const Customer = z.strictObject({
  id: z.string().min(1).max(120).optional(),
  email: z.email({ message: "must be a valid e-mail address" }).max(254).optional(),
  phone: z
    .string()
    .regex(/^\+[1-9][0-9]{7,14}$/, { message: "must be in international format with country code, e.g. +971501234567" })
    .optional(),
  ip: z.union([z.ipv4(), z.ipv6()], { message: "must be an IPv4 or IPv6 address" }).optional(),
  country: z.string().regex(/^[A-Z]{2}$/, { message: "must be an ISO 3166-1 alpha-2 code, e.g. AE" }).optional(),
  username: z.string().min(1).max(120).optional(),
  firstName: z.string().min(1).max(120).optional(),
  lastName: z.string().min(1).max(120).optional(),
});
export type Customer = z.infer<typeof Customer>;

export const Amount = z.string().regex(AMOUNT_PATTERN, { message: "must be a decimal string with up to 10 integer digits and 2 decimals, e.g. \"1123.52\"" });
export const CurrencyCode = z.enum(CURRENCIES);
export const Reference = z.string().min(1).max(120);
export const Description = z.string().max(500);
export const Uuid = z.uuid();

/** Response currencies: SPEC types them as strings; they are ISO 4217 codes. */
export const CurrencyText = z.string().regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 currency code" });
/** Response timestamps: ISO 8601 in UTC (SPEC "Conventions"). */
export const Timestamp = z.iso.datetime({ offset: false });
