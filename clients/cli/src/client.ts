// The HTTP side of `sandpiper` (docs/callbacks.md "The sandpiper command"): one request to the merchant API with the
// command's key, and the service's refusals as errors that carry the error envelope's code, message and requestId.
import type { z } from "zod";
import { Refusal } from "./answers";
import type { Connection } from "./args";

/**
 * A request the service refused or could not answer; the command prints `line()` and exits 1. `status` is null when
 * no answer arrived (the service is not reachable). The API key is never part of the text.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: number | null,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    /** What to do about it, appended to the line. */
    public hint: string,
  ) {
    super(message);
  }

  /** `<status> <code>: <message>, requestId <id>`: the refusal whole, the requestId never cut (one line). */
  detail(): string {
    return `${this.status} ${this.code}: ${this.oneLineMessage()}${this.requestId ? `, requestId ${this.requestId}` : ""}`;
  }

  private oneLineMessage(): string {
    return this.message.replace(/\s+/g, " ").trim().replace(/\.$/, "");
  }

  /** One line: `the service answered <status> <code>: <message>, requestId <id>. <what to do>`. */
  line(): string {
    const message = this.oneLineMessage();
    const detail = this.detail();
    const head = this.status === null ? message : this.status === 401 ? `the service refused the API key (${detail})` : `the service answered ${detail}`;
    return `sandpiper: ${head}.${this.hint ? ` ${this.hint}` : ""}`;
  }
}

/** The generic advice for a refusal, by status (a command may replace it with its own). */
function adviceFor(status: number, code: string, retryAfter: string | null): string {
  if (status === 401) return "Use a valid sandbox API key: --api-key sk_sandbox_... or SANDPIPER_API_KEY.";
  if (status === 403 && code === "INSUFFICIENT_SCOPE")
    return "Use a key that has the scope the message names (keys and their scopes are managed in the console).";
  if (status === 429) return `Wait ${retryAfter ?? "a few"} seconds and run the command again.`;
  if (status >= 500) return "The service failed; run the command again, and give the requestId to its operator if it persists.";
  return "";
}

/**
 * Sends one request to the merchant API as `conn`'s key: JSON in (when `body` is given) and out, `Idempotency-Key`
 * when given, a 30 s time-limit. A 2xx answer is parsed by `answer` (clients/cli/src/answers.ts), never cast.
 * @returns `answer`'s output for the JSON of a 2xx response
 * @throws ServiceError for a non-2xx answer (with the envelope's code, message and requestId), when the service
 *   cannot be reached, or (code UNEXPECTED_ANSWER) when a 2xx answer does not pass `answer`.
 */
export async function request<S extends z.ZodType>(
  conn: Connection,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  answer: S,
  opts: { body?: unknown; idempotencyKey?: string; timeoutMs?: number } = {},
): Promise<z.output<S>> {
  const headers: Record<string, string> = { authorization: `Bearer ${conn.apiKey}`, accept: "application/json" };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
  let res: Response;
  try {
    res = await fetch(conn.apiUrl + path, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    });
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    const cause =
      e.name === "TimeoutError" ? `no answer within ${Math.round((opts.timeoutMs ?? 30_000) / 1000)} s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new ServiceError(
      null,
      "UNREACHABLE",
      `cannot reach the service at ${conn.apiUrl} (${cause})`,
      null,
      "Start it (npm start in the clone) or pass the right --api-url (or SANDPIPER_API_URL).",
    );
  }
  const text = await res.text();
  const json = jsonOrNull(text);
  if (res.ok) {
    const parsed = answer.safeParse(json);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw new ServiceError(
      res.status,
      "UNEXPECTED_ANSWER",
      `${method} ${path.split("?")[0]} answered what this sandpiper cannot read (${issue?.path.join(".") || "the body"}: ${issue?.message ?? "refused"})`,
      res.headers.get("x-request-id"),
      'Use the sandpiper of the service\'s version (docs/client.md "Install").',
    );
  }
  throw refusalOf(res, text);
}

/** The JSON value of `text`, or null when it is empty or not JSON. */
export function jsonOrNull(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

/**
 * The ServiceError of a non-2xx answer whose body is `text`: the error envelope's code, message and requestId (the
 * `X-Request-Id` header when the body has none), and the generic advice for its status.
 */
export function refusalOf(res: Response, text: string): ServiceError {
  const error = Refusal.parse(jsonOrNull(text))?.error;
  const code = error?.code ?? "HTTP_ERROR";
  return new ServiceError(
    res.status,
    code,
    error?.message ?? `no error envelope (${text.slice(0, 120).replace(/\s+/g, " ")})`,
    error?.requestId ?? res.headers.get("x-request-id"),
    adviceFor(res.status, code, res.headers.get("retry-after")),
  );
}
