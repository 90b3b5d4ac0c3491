import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { sourceIp } from "@/lib/domain/auth/ip";
import { getDb } from "@/lib/platform/db";
import { endSessions } from "@/lib/domain/users/sessions";
import { verifyCredentials } from "@/lib/domain/users/sign-in";
import { config } from "@/lib/platform/config";

/** Console sessions last one working day (seconds). */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/**
 * Session cookies carry the Secure flag when the console is served over https (NEXTAUTH_URL starts with
 * https://). They are always HttpOnly and SameSite=Lax (next-auth's defaults). Local http (npm start on
 * http://localhost:3000) gets cookies without Secure, or the browser would drop them.
 */
export function secureCookies(): boolean {
  return (config().NEXTAUTH_URL ?? "").startsWith("https://");
}

/**
 * next-auth configuration of the console (docs/api.md "Authentication" 8, docs/architecture.md "Stack"): one credentials
 * provider (user name + password, argon2id, lock-out in lib/domain/users/sign-in.ts), JWT sessions in an
 * HttpOnly cookie. The token carries only the user id, name and session epoch; every request re-reads the user's
 * role, merchant, active flag and epoch from the database (lib/application/console/session.ts), so a sign-out (which moves the
 * epoch on) ends the session on the server as well.
 */
export const authOptions: NextAuthOptions = {
  secret: config().NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  useSecureCookies: secureCookies(),
  pages: { signIn: "/console/sign-in", error: "/console/sign-in" },
  providers: [
    CredentialsProvider({
      name: "Sandpiper console",
      credentials: { username: { label: "User name", type: "text" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const username = typeof credentials?.username === "string" ? credentials.username.slice(0, 200) : "";
        const password = typeof credentials?.password === "string" ? credentials.password.slice(0, 1000) : "";
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers ?? {})) if (typeof value === "string") headers.set(name, value);
        const result = await verifyCredentials(getDb(), { username, password, ip: sourceIp(headers) });
        if (!result.ok) {
          // next-auth passes the message to the client as `error`; "invalid", "locked" and "busy" are the only values.
          throw new Error(result.reason);
        }
        return { id: result.actor.id, name: result.actor.username, sessionEpoch: result.sessionEpoch };
      },
    }),
  ],
  callbacks: {
    // Redirects stay on the console's own pages (never another site). The sign-in form navigates by itself.
    async redirect({ url, baseUrl }) {
      const path = url.startsWith(baseUrl) ? url.slice(baseUrl.length) : url;
      return `${baseUrl}${path.startsWith("/console") ? path : "/console"}`;
    },
    async jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.name = user.name;
        token.sessionEpoch = user.sessionEpoch ?? 0;
      }
      return token;
    },
    async session({ session, token }) {
      return { ...session, user: { name: token.name ?? null }, userId: token.sub, sessionEpoch: token.sessionEpoch };
    },
  },
  events: {
    // Sign-out ends the session on the server too, not only in this browser: a copied cookie stops working.
    async signOut({ token }) {
      if (token?.sub) await endSessions(getDb(), token.sub);
    },
  },
};
