// GET/POST /api/auth/* - next-auth (console sign-in with user name and password, sessions, CSRF token, sign-out)
import { randomUUID } from "node:crypto";
import NextAuth from "next-auth";
import { authOptions } from "@/lib/application/console/auth-options";
import { apiError } from "@/lib/contract/errors";
import { errorResponse } from "@/lib/application/http/respond";

const handler = NextAuth(authOptions);

type RouteContext = { params: Promise<{ nextauth: string[] }> };

/**
 * GET of next-auth's routes. The credentials provider's callback takes only a POST (the sign-in form's): a GET of it
 * answers 405 METHOD_NOT_ALLOWED with `Allow: POST` in the contract's envelope, where next-auth would answer 500.
 */
async function GET(request: Request, context: RouteContext) {
  const { nextauth } = await context.params;
  if (nextauth[0] === "callback" && nextauth[1] === "credentials") {
    const requestId = randomUUID();
    return errorResponse(
      apiError("METHOD_NOT_ALLOWED", "the credentials sign-in takes a POST from the sign-in form at /console/sign-in", { Allow: "POST" }),
      requestId,
    );
  }
  return handler(request, context);
}

export { GET, handler as POST };
export const dynamic = "force-dynamic";
