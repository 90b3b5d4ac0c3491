import Link from "next/link";

export default function ConsoleNotFound() {
  return (
    <div className="mx-auto max-w-lg rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 className="mt-1 text-xl font-semibold text-slate-900">Not found</h1>
      <p className="mt-2 text-sm text-slate-600">This page does not exist, or it belongs to another merchant.</p>
      <Link href="/console" className="mt-5 inline-block rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-semibold text-white hover:bg-indigo-700">
        Back to the overview
      </Link>
    </div>
  );
}
