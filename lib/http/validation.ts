import type { z } from "zod";
import { apiError } from "@/lib/errors";

/**
 * Parses `value` with a strict zod schema.
 * @throws ApiError 400: INVALID_EMAIL when the only problems are malformed e-mail members, otherwise
 *   VALIDATION_ERROR naming each offending member ("amount: must be ...; unknown property: foo").
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
    if (issue.code === "invalid_type" && issue.message.includes("received undefined")) return `${path || where}: is required`;
    return `${path || where}: ${issue.message}`;
  };
  const message = issues.slice(0, 5).map(describe).join("; ");
  const onlyEmail = issues.every((i) => i.path[i.path.length - 1] === "email" && i.code !== "invalid_type");
  throw apiError(onlyEmail ? "INVALID_EMAIL" : "VALIDATION_ERROR", message);
}
