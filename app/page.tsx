import Link from "next/link";

// Built once: it reads no request (the root layout reads the customer pages' language header, which a static page has not).
export const dynamic = "force-static";

const link = "font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900";

/** The service's front page: what it is and where each kind of user goes next. */
export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Sandpiper</h1>
      <p className="mt-2 text-slate-600">Sandbox payment orchestration. No real money ever moves.</p>
      <ul className="mt-6 list-disc space-y-2 pl-6 text-slate-700">
        <li>
          <Link className={link} href="/docs">
            API reference
          </Link>
          : every <code>/v1</code> endpoint, its fields and errors, and the signed callbacks (the machine-readable contract is{" "}
          <a className={link} href="/v1/openapi.json">
            /v1/openapi.json
          </a>
          ).
        </li>
        <li>
          <Link className={link} href="/console">
            Console
          </Link>{" "}
          for operators and merchant staff: approvals, pricing, rates, allow-lists, API keys and callbacks.
        </li>
        <li>
          Getting started: the README, then the task guides in <code>docs/guides/</code> (listed on{" "}
          <Link className={link} href="/docs">
            /docs
          </Link>
          ): accepting a payment, callbacks, testing every path, the <code>sandpiper</code> command.
        </li>
      </ul>
    </main>
  );
}
