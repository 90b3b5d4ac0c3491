"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { signOut } from "next-auth/react";

export type NavItem = { href: string; label: string; badge?: number };

/** The console's navigation: a sidebar on wide screens, a menu button on phones; sign-out at the bottom. */
export function ConsoleNav({ items, user, role }: { items: NavItem[]; user: string; role: string }) {
  const pathname = usePathname();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const isCurrent = (href: string) => (href === "/console" ? pathname === "/console" : pathname === href || pathname.startsWith(`${href}/`));
  const links = (
    <ul className="space-y-0.5">
      {items.map((item) => (
        <li key={item.href}>
          <Link
            href={item.href}
            onClick={() => setOpen(false)}
            aria-current={isCurrent(item.href) ? "page" : undefined}
            className={`flex items-center justify-between rounded-md px-3 py-2 text-sm font-medium ${
              isCurrent(item.href) ? "bg-slate-800 text-white" : "text-slate-300 hover:bg-slate-800/60 hover:text-white"
            }`}
          >
            <span>{item.label}</span>
            {item.badge ? <span className="rounded-full bg-amber-400 px-2 text-xs font-semibold text-slate-900">{item.badge}</span> : null}
          </Link>
        </li>
      ))}
    </ul>
  );
  const account = (
    <div className="border-t border-slate-800 pt-3">
      <p className="px-3 text-sm text-white">{user}</p>
      <p className="px-3 text-xs text-slate-400">{role === "OPERATOR" ? "Operator" : "Merchant user"}</p>
      <button
        type="button"
        onClick={async () => {
          await signOut({ redirect: false });
          router.replace("/console/sign-in");
          router.refresh();
        }}
        className="mt-2 w-full rounded-md px-3 py-2 text-left text-sm font-medium text-slate-300 hover:bg-slate-800/60 hover:text-white"
      >
        Sign out
      </button>
    </div>
  );
  return (
    <>
      <div className="sticky top-0 z-20 flex items-center justify-between bg-slate-900 px-4 py-3 lg:hidden">
        <Link href="/console" className="text-base font-semibold text-white">
          Sandpiper <span className="font-normal text-slate-400">console</span>
        </Link>
        <button
          type="button"
          aria-expanded={open}
          aria-controls="console-menu"
          onClick={() => setOpen((o) => !o)}
          className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-200 ring-1 ring-slate-700"
        >
          {open ? "Close" : "Menu"}
        </button>
      </div>
      {open ? (
        <nav id="console-menu" aria-label="Console" className="space-y-3 bg-slate-900 px-3 pb-4 lg:hidden">
          {links}
          {account}
        </nav>
      ) : null}
      <aside className="hidden w-56 shrink-0 flex-col bg-slate-900 px-3 py-5 lg:sticky lg:top-0 lg:flex lg:h-screen">
        <Link href="/console" className="whitespace-nowrap px-3 text-base font-semibold text-white">
          Sandpiper <span className="font-normal text-slate-400">console</span>
        </Link>
        <p className="mt-1 px-3 text-xs text-amber-300">Sandbox — no real money moves</p>
        <nav aria-label="Console" className="mt-6 flex-1 overflow-y-auto">
          {links}
        </nav>
        {account}
      </aside>
    </>
  );
}
