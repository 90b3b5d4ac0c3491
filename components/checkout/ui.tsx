"use client";

// Small presentational pieces shared by the customer pages' client components (the amount form, the confirmation
// buttons).

import { useEffect, useRef } from "react";

/** Classes of the page's primary action button (WCAG AA contrast, visible keyboard focus, at least 48 px tall). */
const PRIMARY_BUTTON =
  "min-h-12 w-full rounded-lg bg-blue-700 px-4 py-3 text-base font-semibold text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-wait disabled:opacity-70";

/**
 * Classes of a secondary action button (white with a border): an action beside the primary one that must not look
 * like it ("Update total" beside "Confirm total", "Decline" beside "Pay"). At least 48 px tall.
 */
export const SECONDARY_BUTTON =
  "min-h-12 w-full rounded-lg border border-slate-500 bg-white px-4 py-3 text-base font-semibold text-slate-900 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-wait disabled:opacity-70";

/**
 * An error message announced to screen readers (role="alert"). It takes the keyboard focus when it appears or its
 * text changes, so that after a failed action (whose button was disabled while it ran) the focus is on what went wrong,
 * not on the page's body.
 */
export function ErrorAlert({ id, children }: { id?: string; children: React.ReactNode }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [children]);
  return (
    <p
      ref={ref}
      id={id}
      role="alert"
      tabIndex={-1}
      className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
    >
      {children}
    </p>
  );
}

/**
 * The page's action button, primary unless `secondary`; while `busy` it is disabled, marked aria-busy and shows
 * `busyLabel` (`disabled` also disables it).
 */
export function PrimaryButton({
  busy,
  busyLabel,
  children,
  disabled,
  secondary = false,
  ...props
}: React.ButtonHTMLAttributes<HTMLButtonElement> & { busy: boolean; busyLabel: string; secondary?: boolean }) {
  return (
    <button {...props} disabled={busy || disabled} aria-busy={busy} className={secondary ? SECONDARY_BUTTON : PRIMARY_BUTTON}>
      {busy ? busyLabel : children}
    </button>
  );
}

/** Classes of the amount input and the currency select (equal height, visible focus, 4.7:1 border contrast). */
export const FIELD_CONTROL =
  "mt-1 block h-14 w-full rounded-lg border border-slate-500 bg-white px-3 text-lg text-slate-900 focus:border-blue-700 focus:outline-none focus:ring-2 focus:ring-blue-700";

/** A form field: its visible label bound to the control by id. */
export function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      {children}
    </div>
  );
}
