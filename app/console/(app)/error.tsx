"use client";

export default function ConsoleError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div role="alert" className="mx-auto max-w-lg rounded-xl border border-rose-200 bg-white p-8 text-center shadow-sm">
      <h1 className="text-xl font-semibold text-slate-900">This page could not be loaded</h1>
      <p className="mt-2 text-sm text-slate-600">Something went wrong on our side; nothing was changed. Try again in a moment.</p>
      <button type="button" onClick={reset} className="mt-5 rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-semibold text-white hover:bg-indigo-700">
        Try again
      </button>
    </div>
  );
}
