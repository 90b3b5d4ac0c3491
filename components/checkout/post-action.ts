"use client";

import { problemText, type ProblemWords } from "@/components/checkout/problems";

/**
 * How a client component words a refused action: the refusals' words in the page's language and whether the
 * service's own message is shown instead (English pages: the service's messages are English; an Arabic page words
 * the code itself, components/checkout/problems.ts).
 */
export type ActionWords = { problems: ProblemWords; serviceMessages: boolean };

/** Outcome of a customer action request: ok, or the service's error code and message. */
export type ActionOutcome = { ok: true } | { ok: false; code: string; message: string };

let focusAfterUpdate = false;

/**
 * Posts a JSON body to an action endpoint of a bearer-link page, derived from the current path:
 * `{amount, currency}` to `/checkout/{token}/quote` or `/confirm`, `{}` to `/store/{token}/pay` or `/decline`. The
 * same endpoints take the page's forms when they are sent before this script runs
 * (docs/decisions/0209-customer-forms-post-to-their-action-routes.md).
 * @param words how a refusal is worded ({@link ActionWords})
 */
export async function postCheckoutAction(
  pathname: string,
  action: "quote" | "confirm" | "pay" | "decline",
  body: object,
  words: ActionWords,
): Promise<ActionOutcome> {
  try {
    const res = await fetch(`${pathname.replace(/\/$/, "")}/${action}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      cache: "no-store",
    });
    if (res.ok) {
      focusAfterUpdate = true;
      return { ok: true };
    }
    const data = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    const code = data?.error?.code ?? "ERROR";
    if (!words.serviceMessages) return { ok: false, code, message: code === "ERROR" ? words.problems.ERROR : problemText(code, words.problems) };
    const message = data?.error?.message ?? words.problems.ERROR;
    return { ok: false, code, message: message.charAt(0).toUpperCase() + message.slice(1) + (message.endsWith(".") ? "" : ".") };
  } catch {
    return { ok: false, code: "NETWORK", message: words.problems.NETWORK };
  }
}

/**
 * Shows the page's new state after an action, without a reload: a refresh of the server's page, or, when the page
 * was opened with a form refusal's query (`?problem=...`, components/checkout/problems.ts), the page's own path
 * without it, so that an old refusal is not shown again.
 */
export function showNewState(router: { refresh(): void; replace(href: string, options?: { scroll?: boolean }): void }, pathname: string): void {
  if (window.location.search) router.replace(pathname, { scroll: false });
  else router.refresh();
}

/** True once after an action succeeded: the heading of the new state takes the focus. */
export function takeFocusAfterUpdate(): boolean {
  const value = focusAfterUpdate;
  focusAfterUpdate = false;
  return value;
}
