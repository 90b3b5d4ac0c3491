"use client";

import { useRouter } from "next/navigation";
import { useEffect, useSyncExternalStore } from "react";
import { browserTimeZone, formatCustomerTime } from "@/lib/platform/time-format";

const noSubscription = () => () => {};

/**
 * Shows until when the link is valid, in the customer's own time zone and naming it ("27 Nov 2026, 14:05 New York
 * time"; the server's render says it in UTC, "27 Nov 2026, 19:05 UTC", until the page runs in the browser), and
 * reloads the page the moment it expires, so the customer never acts on an expired session. In Arabic the time is
 * Intl.DateTimeFormat's, naming the zone (lib/platform/time-format.ts formatCustomerTime).
 * @param words the sentence around the time in the page's language, and the page's formatting language (BCP 47).
 */
export function ExpiryWatch({ expiresAt, words }: { expiresAt: string; words: { before: string; after: string; locale: string } }) {
  const router = useRouter();
  const label = useSyncExternalStore(
    noSubscription,
    () => formatCustomerTime(expiresAt, browserTimeZone(), words.locale),
    () => formatCustomerTime(expiresAt, "UTC", words.locale),
  );
  useEffect(() => {
    // setTimeout caps at about 24.8 days; sessions last minutes.
    const wait = Math.min(Math.max(Date.parse(expiresAt) - Date.now(), 0), 2_000_000_000);
    const timer = setTimeout(() => router.refresh(), wait + 500);
    return () => clearTimeout(timer);
  }, [expiresAt, router]);
  return (
    <p className="text-sm text-slate-600">
      {words.before}
      <time dateTime={expiresAt} data-testid="expires-at">
        {label}
      </time>
      {words.after}
    </p>
  );
}
