// The customer pages' return addresses (docs/api.md "Returning to your site"): where "Return to <merchant>" leads from
// an ending page. Checked by the callback address rule's kin: the same loopback rule (lib/domain/addresses/loopback.ts),
// no DNS (the customer's browser follows the link, the service never connects to it).
import { fieldError } from "@/lib/contract/errors";
import { isLoopbackHost, loopbackAddressesAllowed } from "@/lib/domain/addresses/loopback";

/** Longest return address accepted, in characters (the callback address's bound). */
export const MAX_RETURN_URL_LENGTH = 2048;

export type ReturnUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/**
 * Checks a return address: an absolute URL without a user name or password, `https`, on any host but this machine;
 * with `allowLoopback` (local mode: CALLBACK_ALLOW_LOOPBACK=1 outside production) an `http` or `https` address on this
 * machine (localhost, 127.0.0.0/8, [::1], any port) too.
 * @param url the address as sent (surrounding white space is an error, not trimmed).
 * @param allowLoopback whether addresses on this machine are accepted (default: this process's rule).
 * @returns `{ ok: true, url }` with the address as the WHATWG URL parser writes it, or `{ ok: false, reason }` with one
 *   sentence that says what to send instead.
 * @throws never.
 */
export function checkReturnUrl(url: string, allowLoopback = loopbackAddressesAllowed()): ReturnUrlCheck {
  if (url.length > MAX_RETURN_URL_LENGTH) return { ok: false, reason: `at most ${MAX_RETURN_URL_LENGTH} characters` };
  let parsed: URL;
  try {
    if (url.trim() !== url) throw new TypeError("white space");
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: "must be an absolute https address, e.g. https://shop.example/orders/42" };
  }
  if (parsed.username !== "" || parsed.password !== "") return { ok: false, reason: "must not contain a user name or password" };
  if (isLoopbackHost(parsed)) {
    if (!allowLoopback) {
      return {
        ok: false,
        reason: "an address on this machine is accepted only in local mode (CALLBACK_ALLOW_LOOPBACK=1 outside production); send an https address of your site",
      };
    }
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return { ok: true, url: parsed.toString() };
    return { ok: false, reason: "scheme must be https (or http on this machine in local mode)" };
  }
  if (parsed.protocol !== "https:") {
    return { ok: false, reason: allowLoopback ? "scheme must be https (http only on this machine: localhost, 127.0.0.1 or [::1])" : "scheme must be https" };
  }
  return { ok: true, url: parsed.toString() };
}

/**
 * A return address from a request or a console form, checked ({@link checkReturnUrl}) and normalised; undefined, null
 * and "" stay absent.
 * @param field the member's name as the caller knows it (`returnUrl`, `cancelUrl`), named in the error.
 * @returns the address as stored, or null when none was given.
 * @throws ApiError 400 VALIDATION_ERROR "<field>: <reason>" when the address is refused; nothing is changed.
 */
export function returnUrlOrThrow(field: string, url: string | null | undefined): string | null {
  if (url === undefined || url === null || url === "") return null;
  const check = checkReturnUrl(url);
  if (!check.ok) throw fieldError(field, check.reason);
  return check.url;
}

/** Where the customer pages' links lead: `done` from a paid or confirmed page, `leave` from the endings without a payment. */
export type ReturnLinks = { done: string | null; leave: string | null };

/**
 * The links of a payment's or session's pages (docs/api.md "Returning to your site"): its own returnUrl, else the
 * merchant's default, for the endings that went through (paid, confirmed); its own cancelUrl, else that same address,
 * for the endings without a payment (declined, expired, leaving the open page). With nothing set both are null and the
 * pages show no link.
 * @param own the payment's or session's stored addresses (null: none).
 * @param merchantDefault the merchant's default return address (null: none).
 */
export function returnLinks(own: { returnUrl: string | null; cancelUrl: string | null }, merchantDefault: string | null): ReturnLinks {
  const done = own.returnUrl ?? merchantDefault;
  return { done, leave: own.cancelUrl ?? done };
}
