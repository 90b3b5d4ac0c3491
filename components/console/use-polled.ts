"use client";

import { useEffect } from "react";
import useSWR from "swr";

/** GET a console JSON route; a non-2xx answer throws (SWR keeps the last data and reports the error). */
async function fetchJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store" });
  if (!res.ok) {
    const answer = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(res.status === 401 ? "Your session has ended; sign in again." : (answer?.error?.message ?? `The console answered ${res.status}.`));
  }
  return res.json() as Promise<T>;
}

/**
 * Console data rendered on the server (`initial`) and then polled with SWR every `intervalMs` while `open` is true
 * (something shown can still change state); polling stops once everything is final. A new `initial` (the page
 * re-rendered after an action) replaces the polled data at once.
 */
export function usePolled<T extends { open: boolean }>(url: string, initial: T, intervalMs: number) {
  const { data, error, mutate } = useSWR<T>(url, fetchJson, {
    fallbackData: initial,
    // Before the first poll SWR's cache holds nothing (only the fallback): decide from `initial` then.
    refreshInterval: (latest) => ((latest ?? initial).open ? intervalMs : 0),
    revalidateOnMount: false,
  });
  useEffect(() => {
    void mutate(initial, { revalidate: false });
  }, [initial, mutate]);
  return { data: data ?? initial, error: error as Error | undefined };
}
