import type { z } from "zod";
import { apiError } from "@/lib/contract/errors";

/** The member of `value` at a zod issue's `path` (undefined when it, or a member on the way, is absent). */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Parses `value` with a strict zod schema.
 * @throws ApiError 400: INVALID_EMAIL when the only problems are malformed (not over-long) e-mail members, otherwise
 *   VALIDATION_ERROR naming each offending member ("amount: must be ...; unknown property: foo"; an enumeration
 *   names its accepted values).
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: "body" | "query"): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const describe = (issue: (typeof issues)[number]) => {
    const path = issue.path.join(".");
    if (issue.code === "unrecognized_keys") {
      const keys = issue.keys.map((k) => (path ? `${path}.${k}` : k)).join(", ");
      return `unknown property: ${keys}`;
    }
    if (issue.code === "invalid_type" && valueAt(value, issue.path) === undefined) return `${path || where}: is required`;
    if (issue.code === "invalid_type" && issue.expected === "object") return `${path || where}: must be a JSON object`;
    // Enumerations are exact (case-sensitive): name every accepted value.
    if (issue.code === "invalid_value") return `${path || where}: must be one of ${issue.values.map((v) => String(v)).join(", ")} (exactly, case-sensitive)`;
    // A member that may also be blank: the message of its format, not "invalid input".
    if (issue.code === "invalid_union" && issue.errors[0]?.[0]) return `${path || where}: ${issue.errors[0][0].message}`;
    return `${path || where}: ${issue.message}`;
  };
  const message = issues.slice(0, 5).map(describe).join("; ");
  // INVALID_EMAIL is for an address of the wrong form; an over-long one is a length problem (VALIDATION_ERROR).
  const tooLong = (i: (typeof issues)[number]): boolean =>
    i.code === "too_big" || (i.code === "invalid_union" && i.errors.flat().some((e) => e.code === "too_big"));
  const onlyEmail = issues.every((i) => i.path[i.path.length - 1] === "email" && i.code !== "invalid_type" && !tooLong(i));
  throw apiError(onlyEmail ? "INVALID_EMAIL" : "VALIDATION_ERROR", message);
}
