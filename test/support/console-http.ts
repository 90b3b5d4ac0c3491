import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ActionState } from "@/lib/application/console/action";
import { baseUrl, db } from "./fixtures";
import { present } from "../../scripts/harness/present";

// The console over real HTTP, as a browser drives it: next-auth sign-in for a session cookie, and the console's
// Server Actions posted to the built service. Action ids come from the build's server reference manifest
// (.next/server/server-reference-manifest.json: id -> source file, export name and the pages that use it).

const root = path.resolve(__dirname, "../..");
const require = createRequire(path.join(root, "package.json"));

let ipCounter = Math.floor(Math.random() * 200);
/** A source IP for one sign-in (TEST-NET-3), so next-auth's per-IP failure limit never adds up across tests. */
function signInIp(): string {
  ipCounter = (ipCounter + 1) % 250;
  return `203.0.113.${ipCounter + 1}`;
}

export type SignInAnswer = { cookie: string | null; status: number; body: any; setCookie: string[] };

/** next-auth's CSRF token and the cookies it set: what the sign-in form holds before it posts ({@link signIn}). */
export type SignInForm = { base: string; csrfToken: string; cookies: string };

/** Opens the sign-in form as a browser does: next-auth's CSRF token and cookie from `base` (default the suite's service). */
export async function signInForm(base = baseUrl()): Promise<SignInForm> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const cookies = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { csrfToken } = await csrf.json();
  return { base, csrfToken, cookies };
}

/**
 * Signs in through next-auth's credentials endpoint over HTTP (CSRF token first, as the sign-in form does).
 * `ip` is sent as X-Forwarded-For (the test service trusts loopback as a proxy); default: a fresh TEST-NET-3
 * address; `base` another service than the suite's; `form` a sign-in form opened before ({@link signInForm}), so that
 * only the credentials POST is made now. Returns the session cookie ("name=value") or null, with the status, JSON body
 * and Set-Cookie lines.
 */
export async function signIn(username: string, password: string, ip = signInIp(), base = baseUrl(), form?: SignInForm): Promise<SignInAnswer> {
  const { csrfToken, cookies } = form ?? (await signInForm(base));
  const res = await fetch(`${form?.base ?? base}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies, "x-forwarded-for": ip },
    body: new URLSearchParams({ csrfToken, username, password, json: "true" }),
    redirect: "manual",
  });
  const setCookie = res.headers.getSetCookie();
  const session = setCookie.find((c) => c.startsWith("next-auth.session-token="));
  return { cookie: session ? (session.split(";")[0] ?? null) : null, status: res.status, body: await res.json().catch(() => null), setCookie };
}

/**
 * Signs out through next-auth's endpoint as the console's Sign out button does (CSRF token first, with the session
 * cookie). Resolves with the HTTP status.
 */
export async function signOut(cookie: string): Promise<number> {
  const csrf = await fetch(`${baseUrl()}/api/auth/csrf`, { headers: { cookie } });
  const cookies = [cookie, ...csrf.headers.getSetCookie().map((c) => c.split(";")[0])].join("; ");
  const { csrfToken } = await csrf.json();
  const res = await fetch(`${baseUrl()}/api/auth/signout`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies },
    body: new URLSearchParams({ csrfToken, json: "true" }),
    redirect: "manual",
  });
  return res.status;
}

/** The session cookie of a user that must be able to sign in (fails the test otherwise). */
export async function sessionOf(user: { username: string }, password: string): Promise<string> {
  const answer = await signIn(user.username, password);
  if (!answer.cookie) throw new Error(`sign-in of ${user.username} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.cookie;
}

/** GET of a console page or JSON route with a session cookie (redirects are not followed). */
export function getWithSession(pathname: string, cookie: string | null): Promise<Response> {
  return fetch(`${baseUrl()}${pathname}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
}

type ManifestEntry = { filename: string; exportedName: string; workers: Record<string, unknown> };
let manifest: Map<string, { id: string; pages: string[] }> | undefined;

/**
 * The console's Server Actions in the build the service runs, by "<module>.<export>" of app/console/actions
 * (e.g. "settings.addBlock"): the action id and the page routes (route groups removed) that use it.
 */
export function consoleActions(): Map<string, { id: string; pages: string[] }> {
  if (manifest) return manifest;
  const file = path.join(root, ".next", "server", "server-reference-manifest.json");
  const parsed = JSON.parse(readFileSync(file, "utf8")) as { node: Record<string, ManifestEntry> };
  manifest = new Map();
  for (const [id, entry] of Object.entries(parsed.node)) {
    // The path is relative to the build's root: the repository, or a folder above it (next.config turbopack.root).
    const match = /(?:^|\/)app\/console\/actions\/([\w-]+)\.ts$/.exec(entry.filename);
    if (!match) continue;
    const pages = Object.keys(entry.workers).map((w) =>
      w
        .replace(/^app/, "")
        .replace(/\/page$/, "")
        .replace(/\/\([^)]*\)/g, ""),
    );
    manifest.set(`${match[1]}.${entry.exportedName}`, { id, pages });
  }
  return manifest;
}

/** The id of a console Server Action ("settings.addBlock"); throws for a name the build does not have. */
export function actionId(name: string): string {
  const entry = consoleActions().get(name);
  if (!entry) throw new Error(`no Server Action ${name} in the build (known: ${[...consoleActions().keys()].join(", ")})`);
  return entry.id;
}

/**
 * Server Action ids a rendered page hands to its forms: React serialises each server reference passed to a
 * client component as `{"id":"<id>","bound":...}` in the page's flight data (inside `self.__next_f.push`).
 */
export function actionIdsIn(html: string): Set<string> {
  const unescaped = html.replaceAll('\\"', '"');
  return new Set([...unescaped.matchAll(/"id":"([0-9a-f]{40,})"/g)].flatMap((m) => (m[1] ? [m[1]] : [])));
}

export type ActionFields = Record<string, string | string[]>;

/**
 * How an action is posted. "fetch": what the console's JavaScript sends (Next-Action header, arguments encoded
 * by React's encodeReply). "form": a plain multipart form POST without any custom header (what a page without
 * JavaScript, or another site's auto-submitted form, can send), carrying React's progressive-enhancement fields
 * of a useActionState action: the reference and its bound previous state. "form-unbound": the same form naming
 * the action alone (`$ACTION_ID_<id>`), so the action gets the form as its first argument and no second one.
 */
export type ActionTransport = "fetch" | "form" | "form-unbound";

export type ActionCall = {
  /** Session cookie ("name=value"); null/undefined = signed out. */
  cookie?: string | null;
  /** The Origin header; default the service's own origin; null = no Origin header. */
  origin?: string | null;
  transport?: ActionTransport;
  /** Page to post to; default the first page of the action without a dynamic segment. */
  page?: string;
  /** Another service than the suite's (its base url). */
  base?: string;
  /** Extra request headers (e.g. Sec-Fetch-Site). */
  headers?: Record<string, string>;
};

export type ActionAnswer = {
  status: number;
  /** The ActionState the action returned (fetch transport), or null (refused before running, or a form transport). */
  state: ActionState | null;
  text: string;
  headers: Headers;
};

const { encodeReply } = require("next/dist/compiled/react-server-dom-webpack/client.node") as {
  encodeReply: (value: unknown) => Promise<string | FormData>;
};

function formDataOf(fields: ActionFields): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  return form;
}

/**
 * Posts a console Server Action to the built service as a browser would. Console actions are
 * `(previousState, formData) => ActionState` (lib/application/console/action.ts consoleAction); "fetch" and "form" send the
 * idle state and `fields` as the form.
 */
export async function postAction(name: string, fields: ActionFields, call: ActionCall = {}): Promise<ActionAnswer> {
  const id = actionId(name);
  const page =
    call.page ??
    consoleActions()
      .get(name)!
      .pages.find((p) => !p.includes("["));
  if (!page) throw new Error(`${name} is used only on pages with a dynamic segment; pass \`page\``);
  const transport = call.transport ?? "fetch";
  const headers: Record<string, string> = {};
  if (call.cookie) headers.cookie = call.cookie;
  const base = call.base ?? baseUrl();
  const origin = call.origin === undefined ? base : call.origin;
  if (origin !== null) headers.origin = origin;
  Object.assign(headers, call.headers ?? {});
  let body: FormData | string;
  if (transport === "fetch") {
    headers["next-action"] = id;
    headers.accept = "text/x-component";
    body = await encodeReply([{ status: "idle" }, formDataOf(fields)]);
  } else if (transport === "form") {
    // <form action={dispatch}> of useActionState, rendered before hydration: the action reference and its bound
    // argument (the previous state) travel as $ACTION_REF_1 / $ACTION_1:0 / $ACTION_1:1 next to the fields.
    body = formDataOf(fields);
    body.append("$ACTION_REF_1", "");
    body.append("$ACTION_1:0", JSON.stringify({ id, bound: "$@1" }));
    body.append("$ACTION_1:1", JSON.stringify([{ status: "idle" }]));
    body.append("$ACTION_KEY", "k0");
  } else {
    body = formDataOf(fields);
    body.append(`$ACTION_ID_${id}`, "");
  }
  if (typeof body === "string") headers["content-type"] = "text/plain;charset=UTF-8";
  const res = await fetch(`${base}${page}`, { method: "POST", headers, body, redirect: "manual" });
  const text = await res.text();
  return { status: res.status, state: transport === "fetch" ? actionResultOf(text) : null, text, headers: res.headers };
}

/**
 * The value a Server Action returned, from a flight (text/x-component) response: row 0 is
 * `{"a":"$@<row>",...}` and the named row holds the result as JSON; an `E` row (an error instead of a result)
 * gives null. React writes undefined as "$undefined" and escapes strings starting with "$" as "$$"; both are
 * decoded here.
 */
export function actionResultOf(flight: string): ActionState | null {
  const rows = new Map<string, string>();
  for (const line of flight.split("\n")) {
    const match = /^([0-9a-f]+):(.*)$/.exec(line);
    if (match) rows.set(present(match[1], "match[1]"), present(match[2], "match[2]"));
  }
  const head = rows.get("0");
  if (!head) return null;
  const ref = (JSON.parse(head) as { a?: unknown }).a;
  if (typeof ref !== "string" || !ref.startsWith("$@")) return null;
  const row = rows.get(ref.slice(2));
  if (!row || !row.startsWith("{")) return null;
  return JSON.parse(row, (_k, v) => {
    if (v === "$undefined") return undefined;
    return typeof v === "string" && v.startsWith("$$") ? v.slice(1) : v;
  }) as ActionState;
}

/** The audit rows `actorId` (a console user's id) wrote while `run` ran, oldest first, with what `run` returned. */
export async function newAuditRows<T>(actorId: string, run: () => Promise<T>) {
  const where = { actorId };
  const earlier = new Set((await db.auditLog.findMany({ where, select: { id: true } })).map((r) => r.id));
  const result = await run();
  const rows = (await db.auditLog.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).filter((r) => !earlier.has(r.id));
  return { result, rows };
}
