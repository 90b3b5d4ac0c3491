"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { SIGN_IN_MESSAGES } from "@/lib/domain/users/sign-in-messages";

/** User name + password form posting to next-auth's credentials provider (its CSRF token is sent along). */
export function SignInForm({ next }: { next: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <form
      className="mt-4 space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        setPending(true);
        setError(null);
        const data = new FormData(e.currentTarget);
        const result = await signIn("credentials", {
          redirect: false,
          username: String(data.get("username") ?? ""),
          password: String(data.get("password") ?? ""),
        }).catch(() => null);
        if (result?.ok && !result.error) {
          router.replace(next);
          router.refresh();
          return;
        }
        setPending(false);
        setError(
          result?.error
            ? (SIGN_IN_MESSAGES[result.error as keyof typeof SIGN_IN_MESSAGES] ?? SIGN_IN_MESSAGES.invalid)
            : "The console could not be reached. Try again.",
        );
      }}
    >
      <div>
        <label htmlFor="username" className="block text-sm font-medium text-slate-700">
          User name
        </label>
        <input
          id="username"
          name="username"
          autoComplete="username"
          required
          autoCapitalize="none"
          spellCheck={false}
          className="mt-1 block min-h-11 w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
        />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium text-slate-700">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className="mt-1 block min-h-11 w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
        />
      </div>
      {error ? (
        <p role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-900">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="min-h-11 w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700 disabled:opacity-60"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
