// Where `sandpiper listen` sends each event (docs/callbacks.md "sandpiper listen", "Routes and filters"): the
// default route (`--forward-to`) and one route per event type (`--forward <type>=<url>`). Pure functions, no
// imports: the listener runs as a small process of its own.

/** One receiver of the listener. `type` is the event type it takes, or null for the default route (`--forward-to`). */
export type Route = { type: string | null; url: string };

/** True for loopback host names, which the labels shorten to `:port/path`. */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The short label that starts a route's output lines when the listener has more than one route, e.g.
 * `[payment.failed → :8080/failed]` or `[default → api.example.test/hook]`: the type (or `default`) and the URL
 * without its scheme, a loopback host left out.
 */
export function routeLabel(route: Route): string {
  const u = new URL(route.url);
  const where = `${LOCAL_HOSTS.has(u.hostname) ? `:${u.port || (u.protocol === "https:" ? "443" : "80")}` : u.host}${u.pathname}${u.search}`;
  return `[${route.type ?? "default"} → ${where}]`;
}

/** The route an event of `type` goes to: the route of its type, else the default route, else null (skipped). */
export function routeFor(routes: readonly Route[], type: string): Route | null {
  return routes.find((r) => r.type === type) ?? routes.find((r) => r.type === null) ?? null;
}
