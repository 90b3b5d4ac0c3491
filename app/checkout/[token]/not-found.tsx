// The page of an unknown or malformed checkout link (HTTP 404).
export default function CheckoutLinkNotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <header className="space-y-1">
        <p className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950">Sandbox · no real money moves</p>
      </header>
      <section aria-labelledby="not-found" className="space-y-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <h1 id="not-found" className="text-2xl font-semibold text-slate-900">
          Checkout link not found
        </h1>
        <p className="text-slate-700">
          This link is not valid. Check that you opened the complete link you were given, or ask the merchant for a new one. Nothing was charged.
        </p>
      </section>
    </main>
  );
}
