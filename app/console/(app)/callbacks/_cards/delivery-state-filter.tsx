import Link from "next/link";
import { DELIVERY_STATES } from "@/lib/domain/callbacks/deliveries";

/** The merchant's links that narrow the deliveries list to one state (or all). */
export function DeliveryStateFilter({ state }: { state?: string }) {
  return (
    <nav aria-label="Delivery state" className="flex flex-wrap gap-1.5">
      {["", ...DELIVERY_STATES].map((s) => (
        <Link
          key={s || "all"}
          href={s ? `/console/callbacks?state=${s}` : "/console/callbacks"}
          aria-current={(state ?? "") === s ? "page" : undefined}
          className={`rounded-md px-2 py-1 text-xs font-medium ring-1 ring-inset ${(state ?? "") === s ? "bg-indigo-600 text-white ring-indigo-600" : "text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
        >
          {s ? s.replace("_", " ") : "All"}
        </Link>
      ))}
    </nav>
  );
}
