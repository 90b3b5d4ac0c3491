/**
 * FormData -> plain object for zod: a name sent once gives a string, a name sent several times (checkbox
 * groups) gives an array. Framework fields (names starting with "$") are dropped; so are file uploads.
 */
export function formToObject(form: FormData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of form.entries()) {
    if (name.startsWith("$") || typeof value !== "string") continue;
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
