// The probe of a receiver address that refuses connections (docs/callbacks.md "An address that refuses
// connections"): one TCP connect, nothing sent, at most once a second per address. The service probes a callback
// address with it, and `sandpiper listen` its forward address (docs/callbacks.md "sandpiper listen").
import net from "node:net";

/** How often a refusing address is probed, milliseconds: at most once a second per address per process. */
export const PROBE_INTERVAL_MS = 1_000;
/** How long a probe's connect may take before it counts as not accepted, milliseconds. */
export const PROBE_TIMEOUT_MS = 1_000;

/** Where a probe connects: an address (an IP, or a host name the system resolves) and its port; `family` 4 or 6 when known. */
export type ProbeTarget = { address: string; family?: 4 | 6; port: number };

/**
 * One TCP connect to `target`, nothing sent: true when the connection was accepted within `timeoutMs` (default
 * {@link PROBE_TIMEOUT_MS}; the socket is closed at once), false on a refusal, any other error or the time-out.
 * Never throws.
 */
export function probeConnects(target: ProbeTarget, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: target.address, port: target.port, ...(target.family ? { family: target.family } : {}) });
    const done = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}
