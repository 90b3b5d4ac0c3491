/** Types of lib/application/http/static-headers.mjs (the security headers shared with server.mjs and next.config.mjs). */
export const STATIC_HEADERS: Readonly<Record<"X-Frame-Options" | "X-Content-Type-Options" | "Referrer-Policy", string>>;
export function pagePolicy(scripts: string, options?: { https?: boolean; img?: string }): string;
