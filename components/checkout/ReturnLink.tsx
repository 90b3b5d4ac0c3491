// The customer pages' way back to the merchant (docs/api.md "Returning to your site"; docs/guides/store-checkout.md and
// docs/guides/amount-entry-checkout.md): a plain link, so it works before and without the page's scripts.

/** Classes of the return link: a full-width target at least 48 px tall, visible focus, AA contrast. */
const RETURN_LINK =
  "flex min-h-12 w-full items-center justify-center rounded-lg border border-slate-500 bg-white px-4 py-3 text-center text-base font-semibold text-blue-800 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";

/**
 * `label` before the merchant's name ("Return to", "Leave without paying and return to", in the page's language) as a link to
 * `href`, the address the merchant set; nothing when `href` is null, so a page without one stays as it was. The name
 * is isolated (`<bdi>`) like every merchant text. The link carries no status and no token: the page's
 * Referrer-Policy is no-referrer and the address is the merchant's own.
 */
export function ReturnLink({ href, merchantName, label }: { href: string | null; merchantName: string; label: string }) {
  if (!href) return null;
  return (
    <a href={href} rel="noreferrer" className={RETURN_LINK} data-testid="return-link">
      {`${label} `}
      <bdi>{merchantName}</bdi>
    </a>
  );
}
