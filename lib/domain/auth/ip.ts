import ipaddr from "ipaddr.js";
import { log } from "@/lib/platform/log";
import { config } from "@/lib/platform/config";
import { processState } from "@/lib/platform/process-state";

/** Recent answers of {@link normalizeIp}: every request normalises its peer's address, and ipaddr.js parses with regular expressions (about 50 µs a request in a CPU profile). */
const normalized = new Map<string, string | null>();
const NORMALIZED_MAX = 1_024;

/**
 * Normalises an IP address (IPv4-mapped IPv6 becomes its IPv4; IPv6 in canonical short form).
 * Returns null for anything that is not a single exact address (CIDR, wildcards, host names).
 */
export function normalizeIp(text: string): string | null {
  if (text.length > 64) return parseExactIp(text); // no address is this long; kept out of the cache
  const known = normalized.get(text);
  if (known !== undefined) return known;
  if (normalized.size >= NORMALIZED_MAX) normalized.clear();
  const result = parseExactIp(text);
  normalized.set(text, result);
  return result;
}

function parseExactIp(text: string): string | null {
  const trimmed = text.trim();
  if (!ipaddr.isValid(trimmed) || trimmed.includes("/")) return null;
  // ipaddr.isValid accepts shorthand IPv4 forms ("127.1"); the allow-list takes only four octets.
  if (!trimmed.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return null;
  const parsed = ipaddr.parse(trimmed);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.zoneId) return null;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    return v6.toNormalizedString() === "0:0:0:0:0:0:0:1" ? "::1" : v6.toString();
  }
  return parsed.toString();
}

let trusted: { setting: string; addresses: Set<string> } | null = null;

/** Proxies whose X-Forwarded-For is trusted (TRUSTED_PROXIES, comma-separated exact addresses), parsed once per value of the setting. */
function trustedProxies(): Set<string> {
  const setting = config().TRUSTED_PROXIES ?? "";
  if (trusted?.setting !== setting) {
    trusted = {
      setting,
      addresses: new Set(
        setting
          .split(",")
          .map((s) => normalizeIp(s))
          .filter((s): s is string => !!s),
      ),
    };
  }
  return trusted.addresses;
}

/** Internal header set by server.mjs from the socket address (any client-sent value is dropped). */
export const PEER_HEADER = "x-sandpiper-peer";
/**
 * Internal header set by server.mjs: X-Forwarded-For as the client sent it, absent when it sent none (any
 * client-sent value is replaced). Next.js fills X-Forwarded-For itself, so that header cannot tell.
 */
export const FORWARDED_HEADER = "x-sandpiper-forwarded-for";

/**
 * The request's source IP (docs/architecture.md "Request pipeline"): the socket address, unless that address is a
 * trusted proxy; then X-Forwarded-For is read from the right, skipping trusted proxies.
 * Returns null when the address cannot be determined.
 */
export function sourceIp(headers: Headers): string | null {
  const peer = normalizeIp(headers.get(PEER_HEADER) ?? "");
  if (!peer) return null;
  const trusted = trustedProxies();
  if (!trusted.has(peer)) {
    if (headers.has(FORWARDED_HEADER)) warnUntrustedProxy(peer);
    return peer;
  }
  const hops = (headers.get(FORWARDED_HEADER) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const raw of hops.reverse()) {
    const hop = normalizeIp(raw);
    if (!hop) return peer;
    if (!trusted.has(hop)) return hop;
  }
  return peer;
}

/**
 * Logs once per address (a warning) that requests arrive with X-Forwarded-For from a peer not in TRUSTED_PROXIES:
 * behind such a proxy every client shares the proxy's address for rate limits and sign-in throttling.
 */
function warnUntrustedProxy(peer: string): void {
  const warned = (processState().untrustedProxiesWarned ??= new Set());
  if (warned.has(peer) || warned.size > 100) return;
  warned.add(peer);
  log.warn(
    { peer },
    "requests arrive with X-Forwarded-For from an address not in TRUSTED_PROXIES: limits and sign-in throttling see every client behind it as this one address; add the proxy to TRUSTED_PROXIES",
  );
}
