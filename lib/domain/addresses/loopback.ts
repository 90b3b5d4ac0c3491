// What the callback address rule and the return address rule share: reading a URL's host as an IP address, whether it
// is this machine (loopback), and whether this process accepts such an address (docs/callbacks.md, first paragraph;
// docs/api.md "Returning to your site"; docs/operating.md "Environment", CALLBACK_ALLOW_LOOPBACK).
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { loopbackAllowed } from "@/lib/domain/addresses/loopback-rule.mjs";
import { config } from "@/lib/platform/config";
import { runtimeEnv } from "@/lib/platform/runtime-env";

/**
 * An IP address in text form, parsed; an IPv4-mapped IPv6 address (::ffff:127.0.0.1) as its IPv4 address.
 * @returns the address, or null for text that is not one (never throws).
 */
export function parseIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(ip)) return null;
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
}

/** True for an address of 127.0.0.0/8 or ::1 (also written IPv4-mapped); false for anything else, unparseable text included. */
export function isLoopbackAddress(ip: string): boolean {
  const addr = parseIp(ip);
  return addr !== null && addr.range() === "loopback";
}

/** A URL's `hostname` as an IP literal without brackets (any WHATWG form), or null for a DNS name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return isIP(bare) !== 0 || ipaddr.isValid(bare) ? bare : null;
}

/**
 * True when a parsed URL names this machine: a loopback IP literal (127.0.0.0/8, [::1]) or the name "localhost"
 * (a trailing dot and letter case ignored). Other names are not resolved here.
 */
export function isLoopbackHost(url: URL): boolean {
  const literal = ipLiteral(url.hostname);
  return literal !== null ? isLoopbackAddress(literal) : url.hostname.replace(/\.$/, "").toLowerCase() === "localhost";
}

/**
 * Whether this process accepts addresses on this machine: `CALLBACK_ALLOW_LOOPBACK=1` and `NODE_ENV` other than
 * production (the one rule, lib/domain/addresses/loopback-rule.mjs; read at run time, lib/platform/runtime-env.ts).
 * Callback receivers and return addresses follow it alike.
 */
export function loopbackAddressesAllowed(): boolean {
  return loopbackAllowed(config().CALLBACK_ALLOW_LOOPBACK, runtimeEnv("NODE_ENV"));
}
