/**
 * `value`, checked present: for a test, benchmark or spec that reads what it expects to be there (`rows[0]`, a map's
 * entry, a regular expression's group, `os.cpus()[0]`). It fails there with `<what> is missing` where reading on
 * would throw a TypeError further away, and its type no longer includes undefined.
 * @throws Error `<what> is missing` when `value` is undefined
 */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}

/**
 * Checks `value` present and narrows it where it is (a destructured `const [row] = rows`, a `find`'s result): as
 * {@link present}, for a name that is used several times after.
 * @throws Error `<what> is missing` when `value` is undefined
 */
export function assertPresent<T>(value: T | undefined, what: string): asserts value is T {
  present(value, what);
}
