// Per-request security headers of the console and the customer pages (docs/guides/console-for-operators.md "Console tour", "Security
// headers"): a Content-Security-Policy with a fresh script nonce (Next.js applies it to its own scripts), and
// Strict-Transport-Security when the service is published over https. Static headers are in next.config.mjs.
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, transportSecurityHeaders } from "@/lib/application/http/security-headers";

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = contentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  for (const [name, value] of Object.entries(transportSecurityHeaders())) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: ["/console/:path*", "/console", "/api/console/:path*", "/checkout/:path*", "/store/:path*"],
};
