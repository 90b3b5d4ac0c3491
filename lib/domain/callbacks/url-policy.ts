// Callback target URL policy (SSRF protection). docs/callbacks.md (first paragraph), docs/architecture.md "Callbacks".
import { promises as dns } from "node:dns";
import { isIP } from "node:net";
import type ipaddr from "ipaddr.js";
import { loopbackAllowed } from "@/lib/domain/addresses/loopback-rule.mjs";
import { ipLiteral, isLoopbackAddress, isLoopbackHost, parseIp } from "@/lib/domain/addresses/loopback";
import { runtimeEnv } from "@/lib/platform/runtime-env";

/** One resolved address of a host name. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export interface CheckCallbackUrlOptions {
  /**
   * Tests and local development only (the caller passes it when CALLBACK_ALLOW_LOOPBACK=1):
   * also allow http or https on any port to a loopback host (127.0.0.0/8, [::1], "localhost"),
   * every resolved address of which must be loopback. Has no effect when NODE_ENV=production.
   */
  allowLoopback?: boolean;
  /** Host name resolver; default `dns.promises.lookup(host, { all: true, verbatim: true })`. */
  resolve?: Resolver;
}

export type CallbackUrlCheck = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; reason: string };

const defaultResolve: Resolver = async (host) => {
  const found = await dns.lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * True only for a public unicast address a callback may be sent to.
 *
 * IPv4 (also IPv4-mapped IPv6 such as ::ffff:127.0.0.1, judged by the embedded IPv4): ipaddr.js
 * `range()` must be "unicast", which excludes unspecified 0/8, private 10/8 172.16/12 192.168/16,
 * loopback 127/8, link-local 169.254/16, CGNAT 100.64/10, multicast 224/4, broadcast,
 * reserved/documentation/benchmarking (192.0.0/24, 192.0.2/24, 198.18/15, 198.51.100/24,
 * 203.0.113/24, 240/4, ...), AS112 and AMT.
 * IPv6: `range()` must be "unicast" (excludes ::, ::1, fe80::/10, fc00::/7, ff00::/8, fec0::/10,
 * 6to4 2002::/16, Teredo 2001::/32, NAT64 64:ff9b::/96, documentation, benchmarking, ...) and the
 * address must lie in global unicast 2000::/3 (excludes e.g. IPv4-compatible ::a.b.c.d); an
 * address with a zone id is never public.
 *
 * @param ip an IP address in text form; anything unparseable gives false.
 * @throws never.
 */
export function isPublicAddress(ip: string): boolean {
  const addr = parseIp(ip);
  if (addr === null) return false;
  if (addr.kind() === "ipv4") return addr.range() === "unicast";
  const v6 = addr as ipaddr.IPv6;
  const [high = 0] = v6.parts;
  return v6.range() === "unicast" && (high & 0xe000) === 0x2000 && !v6.zoneId;
}

/** Whether `list` has a first element (its type then says so). */
const isNonEmpty = <T>(list: T[]): list is [T, ...T[]] => list.length > 0;

async function resolveAll(host: string, resolve: Resolver): Promise<[ResolvedAddress, ...ResolvedAddress[]] | string> {
  let found: ResolvedAddress[];
  try {
    found = await resolve(host);
  } catch {
    return "host name could not be resolved";
  }
  if (!Array.isArray(found) || !isNonEmpty(found)) return "host name could not be resolved";
  for (const a of found) {
    const family = isIP(a?.address ?? "");
    if (family === 0 || family !== a.family) return "host name resolved to an invalid address";
  }
  return found;
}

async function checkLoopbackUrl(url: URL, literal: string | null, resolve: Resolver): Promise<CallbackUrlCheck> {
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "scheme must be https" };
  if (literal !== null) {
    return { ok: true, url, address: literal, family: isIP(literal) === 6 ? 6 : 4 };
  }
  const found = await resolveAll(url.hostname, resolve);
  if (typeof found === "string") return { ok: false, reason: found };
  const bad = found.find((a) => !isLoopbackAddress(a.address));
  if (bad) return { ok: false, reason: `host resolves to non-loopback address ${bad.address}` };
  return { ok: true, url, address: found[0].address, family: found[0].family };
}

/**
 * Checks a callback target URL and pins the address to connect to.
 *
 * docs/callbacks.md: public HTTPS address, port 443; private networks, local addresses, raw IP
 * addresses and other ports are not used. docs/architecture.md "Callbacks": checked when saved and again at
 * send time, after DNS resolution; the sender connects to the returned address (no DNS rebinding
 * between check and connect).
 *
 * Rules, in order: an absolute URL that parses; no user name or password; scheme https; port
 * 443 (explicit ":443" is fine); host is a DNS name, not an IP literal (IPv4 in any WHATWG
 * shorthand such as 2130706433 or 0x7f.1, or bracketed IPv6); the name resolves; every resolved
 * address passes {@link isPublicAddress}. With `allowLoopback` (not in production) a URL whose
 * host is 127.0.0.0/8, [::1] or "localhost" may use http or https on any port; nothing else is relaxed.
 *
 * @param url the configured callback address.
 * @returns `{ ok: true, url, address, family }` with the first resolved address, or
 *   `{ ok: false, reason }` with a human-readable reason such as "port must be 443".
 * @throws never (resolver failures become `{ ok: false }`).
 */
export async function checkCallbackUrl(url: string, opts: CheckCallbackUrlOptions = {}): Promise<CallbackUrlCheck> {
  const resolve = opts.resolve ?? defaultResolve;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: "not a valid absolute URL" };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return { ok: false, reason: "URL must not contain a user name or password" };
  }

  const literal = ipLiteral(parsed.hostname);
  if (opts.allowLoopback && isLoopbackHost(parsed)) {
    // Checked again here, at every send, by the one rule (lib/domain/addresses/loopback-rule.mjs).
    if (!loopbackAllowed(true, runtimeEnv("NODE_ENV"))) {
      return { ok: false, reason: "loopback callback addresses are refused when NODE_ENV=production" };
    }
    return checkLoopbackUrl(parsed, literal, resolve);
  }

  if (parsed.protocol !== "https:") return { ok: false, reason: "scheme must be https" };
  if (parsed.port !== "") return { ok: false, reason: "port must be 443" };
  if (literal !== null) return { ok: false, reason: "host must be a DNS name, not an IP address" };

  const found = await resolveAll(parsed.hostname, resolve);
  if (typeof found === "string") return { ok: false, reason: found };
  const bad = found.find((a) => !isPublicAddress(a.address));
  if (bad) return { ok: false, reason: `host resolves to non-public address ${bad.address}` };
  return { ok: true, url: parsed, address: found[0].address, family: found[0].family };
}
