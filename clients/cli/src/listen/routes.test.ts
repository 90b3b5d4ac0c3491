import { describe, expect, it } from "vitest";
import { routeFor, routeLabel, type Route } from "./routes";

// The routes of `sandpiper listen` (docs/callbacks.md "Routes and filters").

describe("routes", () => {
  const failed: Route = { type: "payment.failed", url: "http://localhost:8080/failed" };
  const fallback: Route = { type: null, url: "https://hooks.example.test:8443/in?x=1" };

  it("sends an event to the route of its type, else the default route, else nowhere", () => {
    expect(routeFor([failed, fallback], "payment.failed")).toBe(failed);
    expect(routeFor([failed, fallback], "payment.succeeded")).toBe(fallback);
    expect(routeFor([failed], "payment.succeeded")).toBeNull();
  });

  it("labels a route by its type and its URL, loopback hosts shortened to the port", () => {
    expect(routeLabel(failed)).toBe("[payment.failed → :8080/failed]");
    expect(routeLabel({ type: null, url: "http://127.0.0.1/hook" })).toBe("[default → :80/hook]");
    expect(routeLabel(fallback)).toBe("[default → hooks.example.test:8443/in?x=1]");
  });
});
