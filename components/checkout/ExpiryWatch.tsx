"use client";

import { useRouter } from "next/navigation";
import { useEffect, useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * Shows until when the link is valid, in the customer's own time zone and naming it ("14:05 UTC", "2:05 PM GMT+4";
 * so only in the browser), and reloads the page the moment it expires, so the customer never acts on an expired
 * session.
 */
export function ExpiryWatch({ expiresAt }: { expiresAt: string }) {
  const router = useRouter();
  const label = useSyncExternalStore(
    noSubscription,
    () => new Date(expiresAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", timeZoneName: "short" }),
    () => null,
  );
  useEffect(() => {
    // setTimeout caps at about 24.8 days; sessions last minutes.
    const wait = Math.min(Math.max(Date.parse(expiresAt) - Date.now(), 0), 2_000_000_000);
    const timer = setTimeout(() => router.refresh(), wait + 500);
    return () => clearTimeout(timer);
  }, [expiresAt, router]);
  if (!label) return null;
  return (
    <p className="text-sm text-slate-600">
      This link is valid until <time dateTime={expiresAt}>{label}</time>.
    </p>
  );
}
