import { redirect } from "next/navigation";
import { currentActor } from "@/lib/application/console/session";
import { SignInForm } from "@/components/console/sign-in-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in · Sandpiper console" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentActor()) redirect("/console");
  const { next } = await searchParams;
  const target = typeof next === "string" && next.startsWith("/console") && !next.startsWith("//") ? next : "/console";
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <p className="text-2xl font-semibold tracking-tight text-slate-900">Sandpiper console</p>
          <p className="mt-1 text-sm text-slate-600">Sandbox payments — no real money moves.</p>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-lg font-semibold text-slate-900">Sign in</h1>
          <SignInForm next={target} />
        </div>
      </div>
    </main>
  );
}
