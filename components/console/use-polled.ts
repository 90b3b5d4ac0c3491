"use client";

import { useEffect } from "react";
import useSWR from "swr";
import type { z } from "zod";

/**
 * A console JSON route's answer parsed by `schema` (lib/contract/schemas/console/views.ts): the typed data, or an Error saying
 * which member is not what the page expects (SWR keeps the last data and reports it).
 */
export function parsePolled<T>(schema: z.ZodType<T>, json: unknown): T {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`The console answered data this page cannot read (${issue?.path.join(".") || "the answer"}: ${issue?.message ?? "refused"}).`);
}

/** GET a console JSON route and parse it with `schema`; a non-2xx answer throws (SWR keeps the last data and reports the error). */
async function fetchJson<T>(url: string, schema: z.ZodType<T>): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store" });
  if (!res.ok) {
    const answer: unknown = await res.json().catch(() => null);
    const message = typeof answer === "object" && answer !== null && "error" in answer ? messageOf(answer.error) : undefined;
    throw new Error(res.status === 401 ? "Your session has ended; sign in again." : (message ?? `The console answered ${res.status}.`));
  }
  return parsePolled(schema, await res.json());
}

/** The `message` of an error envelope's `error`, when it is text. */
function messageOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" ? error.message : undefined;
}

/**
 * Console data rendered on the server (`initial`) and then polled with SWR every `intervalMs` while `open` is true
 * (something shown can still change state); polling stops once everything is final. Each answer is parsed by
 * `schema` (its output must be assignable to the server's type `T`), so a page never takes an unchecked shape. A new
 * `initial` (the page re-rendered after an action) replaces the polled data at once.
 */
export function usePolled<T extends { open: boolean }>(url: string, initial: T, intervalMs: number, schema: z.ZodType<T>) {
  const { data, error, mutate } = useSWR<T, Error>(url, (key: string) => fetchJson(key, schema), {
    fallbackData: initial,
    // Before the first poll SWR's cache holds nothing (only the fallback): decide from `initial` then.
    refreshInterval: (latest) => ((latest ?? initial).open ? intervalMs : 0),
    revalidateOnMount: false,
  });
  useEffect(() => {
    void mutate(initial, { revalidate: false });
  }, [initial, mutate]);
  return { data: data ?? initial, error };
}
