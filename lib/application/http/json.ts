import { apiError } from "@/lib/contract/errors";

// Strict reading of request input (docs/architecture.md "Request pipeline": bad input gets a clear 400 and changes
// nothing). Beyond JSON.parse: a repeated member name is rejected (parsers disagree on which copy wins, so a
// proxy, a log and this service could each see a different request), and so is text PostgreSQL cannot store
// (NUL) or that is not Unicode (a lone surrogate escape such as "\ud800").

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Parses a request body as strict UTF-8 JSON.
 * @throws ApiError 400 VALIDATION_ERROR when the body is empty, not UTF-8, not JSON, repeats a member name
 *   within one object, or holds a string or member name with NUL or a lone surrogate.
 */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) throw apiError("VALIDATION_ERROR", "request body is empty; send a JSON object");
  let text: string;
  let value: unknown;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    throw apiError("VALIDATION_ERROR", "request body is not valid UTF-8; send JSON text encoded as UTF-8");
  }
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw apiError("VALIDATION_ERROR", `request body is not valid JSON ${jsonErrorPlace(text, error)}; send one JSON object, e.g. {"reference":"order-1001"}`);
  }
  const repeated = repeatedMember(text);
  if (repeated !== null) throw apiError("VALIDATION_ERROR", `request body repeats the member ${JSON.stringify(repeated.slice(0, 60))}; send each member once`);
  if (hasUnstorableText(value)) throw apiError("VALIDATION_ERROR", "request body has a string with NUL or a lone surrogate; send well-formed Unicode text");
  return value;
}

/**
 * Where JSON.parse gave up, in the client's terms: "at position 17 (line 2, column 5)", "(it ends too early)",
 * or "(check the quotes, commas and brackets)" when the parser names no place. The parser's own message is not
 * passed on: it can quote the body.
 */
function jsonErrorPlace(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const position = /position (\d+)/.exec(message);
  if (!position) return /end of JSON input/.test(message) ? "(it ends too early)" : "(check the quotes, commas and brackets)";
  const at = Number(position[1]);
  const before = text.slice(0, at).split("\n");
  return `at position ${at} (line ${before.length}, column ${(before.at(-1) ?? "").length + 1})`;
}

/** Internal header set by server.mjs to the request target (path and query) exactly as the client sent it. */
export const TARGET_HEADER = "x-sandpiper-target";

/**
 * The query parameters of a request as the client sent them: from server.mjs's TARGET_HEADER when present (Next.js
 * rebuilds `request.url` from a parsed query object, which drops a parameter named `__proto__`), else from
 * `request.url` (handlers called without server.mjs).
 */
export function requestQuery(request: Request): URLSearchParams {
  const target = request.headers.get(TARGET_HEADER);
  if (target && URL.canParse(target, "http://target.invalid")) return new URL(target, "http://target.invalid").searchParams;
  return new URL(request.url).searchParams;
}

/**
 * The query string as an object of single values.
 * @throws ApiError 400 VALIDATION_ERROR when a parameter is given more than once or holds NUL.
 */
export function queryObject(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = Object.create(null); // "__proto__" stays a plain (unknown) name
  for (const [name, value] of params) {
    if (Object.hasOwn(query, name)) throw apiError("VALIDATION_ERROR", `query parameter ${JSON.stringify(name.slice(0, 60))} is given more than once`);
    if (UNSTORABLE.test(name) || UNSTORABLE.test(value)) throw apiError("VALIDATION_ERROR", "query has a parameter with NUL; send well-formed text");
    query[name] = value;
  }
  return query;
}

/**
 * The first member name repeated within one object of a JSON text, or null. `text` must be valid JSON (it is
 * scanned after JSON.parse succeeded); iterative, so deep nesting cannot exhaust the stack.
 */
export function repeatedMember(text: string): string | null {
  const open: (Set<string> | null)[] = []; // one entry per open object (its member names) or array (null)
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") open.push(new Set());
    else if (c === "[") open.push(null);
    else if (c === "}" || c === "]") open.pop();
    else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const members = open[open.length - 1];
      if (members && isFollowedByColon(text, end + 1)) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (members.has(name)) return name;
        members.add(name);
      }
      i = end;
    }
  }
  return null;
}

function isFollowedByColon(text: string, from: number): boolean {
  let i = from;
  while (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r") i++;
  return text[i] === ":";
}

/** True when any string or member name in a parsed JSON value holds NUL or a lone surrogate (iterative walk). */
function hasUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (UNSTORABLE.test(item)) return true;
    } else if (Array.isArray(item)) {
      pending.push(...item);
    } else if (item && typeof item === "object") {
      for (const [name, member] of Object.entries(item)) {
        if (UNSTORABLE.test(name)) return true;
        pending.push(member);
      }
    }
  }
  return false;
}
