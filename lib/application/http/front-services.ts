// What server.mjs, the plain-JavaScript HTTP front, asks of the service's modules (docs/operating.md "The HTTP front"):
// the one log (every line through the redaction rule) and the per-address budget of page POSTs, both hung on the
// process's state (lib/platform/process-state.ts), where server.mjs finds them.
import { log } from "@/lib/platform/log";
import { processState } from "@/lib/platform/process-state";
import { FORWARDED_HEADER, PEER_HEADER, sourceIp } from "@/lib/domain/auth/ip";
import { ApiError } from "@/lib/contract/errors";
import { enforcePagePostLimit } from "@/lib/application/http/rate-limit";

/**
 * Gives server.mjs the service's log and the page POST budget (instrumentation.ts calls it once at start; until then
 * server.mjs writes its lines as JSON itself and admits page POSTs):
 * - `frontLog(level, fields, message)`: one line of the stdout log (lib/platform/log.ts: JSON, redacted);
 * - `pagePostLimit(peer, forwardedFor)`: spends one page POST of the request's source address (the socket's `peer`,
 *   or X-Forwarded-For as sent when the peer is in TRUSTED_PROXIES); resolves null when admitted, or the seconds to
 *   wait (Retry-After) when the address's budget is spent (lib/application/http/rate-limit.ts enforcePagePostLimit).
 */
export function registerFrontServices(): void {
  const state = processState();
  state.frontLog = (level, fields, message) => log[level](fields, message);
  state.pagePostLimit = async (peer, forwardedFor) => {
    const headers = new Headers({ [PEER_HEADER]: peer });
    if (forwardedFor !== undefined) headers.set(FORWARDED_HEADER, forwardedFor);
    try {
      await enforcePagePostLimit(sourceIp(headers));
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.code === "RATE_LIMITED") return Number(error.headers["Retry-After"] ?? 60);
      throw error;
    }
  };
}
