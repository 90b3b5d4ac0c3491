import type { Metadata } from "next";

/**
 * The metadata of a customer page (the store page, the amount-entry page): the tab's title names the state first
 * ("Payment confirmed · Store checkout · Sandpiper sandbox"), so a customer who comes back to the tab sees where the
 * payment stands; the bearer-link pages are never indexed.
 * @param state the state's words ("Payment confirmed", "Link not found").
 * @param page the page's name ("Store checkout", "Checkout").
 * @param site the service's name ("Sandpiper sandbox"); all three in the page's language.
 */
export function customerPageMetadata(state: string, page: string, site: string): Metadata {
  return { title: `${state} · ${page} · ${site}`, robots: { index: false, follow: false } };
}
