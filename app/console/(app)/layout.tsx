import type { ReactNode } from "react";
import Link from "next/link";
import { ConsoleNav, type NavItem } from "@/components/console/nav";
import { Notice } from "@/components/console/ui";
import { merchantsInChaosMode } from "@/lib/domain/callbacks/manage-callbacks";
import { countAwaitingApproval } from "@/lib/domain/payments/payment-views";
import { merchantsWithMovedClock } from "@/lib/simulators/sandbox-clock/clock";
import { requireActor } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sandpiper console" };

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const actor = await requireActor();
  const [awaiting, chaos, clocks] = await Promise.all([
    countAwaitingApproval(getDb(), actor),
    merchantsInChaosMode(getDb(), actor),
    merchantsWithMovedClock(getDb(), actor),
  ]);
  const items: NavItem[] = [
    { href: "/console", label: "Overview" },
    { href: "/console/payments", label: "Payments" },
    { href: "/console/approvals", label: "Approvals", badge: awaiting },
    { href: "/console/keys", label: "API keys" },
    { href: "/console/callbacks", label: "Callbacks" },
    { href: "/console/requests", label: "Requests" },
  ];
  if (actor.role === "OPERATOR") {
    items.push(
      { href: "/console/merchants", label: "Merchants" },
      { href: "/console/users", label: "Users" },
      { href: "/console/pricing", label: "Pricing" },
      { href: "/console/rates", label: "FX rates" },
      { href: "/console/catalog", label: "Store catalog" },
      { href: "/console/settings", label: "Intake & block list" },
      { href: "/console/audit", label: "Audit log" },
    );
  } else {
    items.push({ href: `/console/merchants/${actor.merchantId}`, label: "Merchant & allow-list" });
  }
  return (
    <div className="min-h-screen bg-slate-50 lg:flex lg:bg-[linear-gradient(to_right,var(--color-slate-900)_14rem,var(--color-slate-50)_14rem)]">
      <ConsoleNav items={items} user={actor.username} role={actor.role} />
      <div className="min-w-0 flex-1 bg-slate-50">
        {chaos.length > 0 ? (
          <div className="mx-auto max-w-6xl px-4 pt-4 sm:px-6" data-testid="chaos-banner">
            <Notice tone="warning" title={`Chaos mode is on for ${chaos.map((m) => m.name).join(", ")}`}>
              Callbacks and listener forwards also bring duplicates, delays, forged and stale requests, to test your receiver.{" "}
              <Link className="font-medium underline" href="/console/callbacks">
                Switch it off on the Callbacks page
              </Link>
              .
            </Notice>
          </div>
        ) : null}
        {clocks.length > 0 ? (
          <div className="mx-auto max-w-6xl px-4 pt-4 sm:px-6" data-testid="clock-banner">
            <Notice tone="info" title={`Sandbox clock moved: ${clocks.map((c) => `${c.name} runs ${c.offset} ahead`).join(", ")}`}>
              Their payments, checkout sessions, limits and velocity windows see the sandbox time; payments created or expired under it show the offset.{" "}
              <Link className="font-medium underline" href="/console/callbacks">
                Reset it on the Callbacks page
              </Link>
              .
            </Notice>
          </div>
        ) : null}
        <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:py-8">{children}</main>
      </div>
    </div>
  );
}
