"use client";

import { useEffect, useRef } from "react";
import { takeFocusAfterUpdate } from "@/components/checkout/post-action";

/**
 * The heading of a checkout state. After the customer's action moved the session to this state, the
 * heading takes the keyboard and screen-reader focus, so the change is announced.
 */
export function StateHeading({ children, id }: { children: React.ReactNode; id: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocusAfterUpdate()) ref.current?.focus();
  }, []);
  return (
    <h2
      ref={ref}
      id={id}
      tabIndex={-1}
      className="-mx-1 rounded px-1 text-lg font-semibold text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
    >
      {children}
    </h2>
  );
}
