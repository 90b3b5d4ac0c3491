import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Sandpiper</h1>
      <p className="mt-2 text-slate-600">Sandbox payment orchestration. No real money ever moves.</p>
      <ul className="mt-6 list-disc pl-6 text-slate-700">
        <li>Merchant API under <code>/v1</code> (see the README).</li>
        <li>
          <Link className="text-blue-700 underline" href="/console">Console</Link> for operators and merchant staff.
        </li>
      </ul>
    </main>
  );
}
