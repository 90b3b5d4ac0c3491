import type { z } from "zod";

/**
 * A stored JSON value that does not match its schema (docs/decisions/0153-stored-json-is-parsed-where-it-is-read.md):
 * a row written by older code or by hand. `column` names the column (`payments.pricing`); the message names every
 * member that is wrong. Not a client error: the pipeline answers it 500 INTERNAL_ERROR and logs the message (which
 * names members, never their values).
 */
export class StoredDataError extends Error {
  constructor(
    readonly column: string,
    readonly problems: string[],
  ) {
    super(`stored ${column} does not match its schema: ${problems.join("; ")}`);
    this.name = "StoredDataError";
  }
}

/**
 * Parses the value of a stored JSON column by its schema, where it is read (instead of a type assertion).
 * `what` names the column as `table.column` (`payments.pricing`, `settings.value (service)`).
 * @returns the schema's output (members in the schema's order)
 * @throws StoredDataError naming `what` and each wrong member's path, e.g.
 *   `stored payments.pricing does not match its schema: reserve: Invalid input: expected string, received undefined`
 */
export function parseStored<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new StoredDataError(
    what,
    result.error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "(the value)"}: ${issue.message}`),
  );
}
