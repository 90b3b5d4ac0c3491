// GET/POST /api/auth/* - next-auth (console sign-in with user name and password, sessions, CSRF token, sign-out)
import NextAuth from "next-auth";
import { authOptions } from "@/lib/application/console/auth-options";

const handler = NextAuth(authOptions);
export { handler as GET, handler as POST };
export const dynamic = "force-dynamic";
