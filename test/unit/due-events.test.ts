// lib/domain/notify/due-events.ts and the registry's event-driven entries (docs/architecture.md "Jobs"): typed payloads,
// malformed ones refused, and every due event caught up by a polling job of the registry.
import { describe, expect, it } from "vitest";
import { announce } from "@/lib/domain/notify/announce";
import { DELIVERY_DUE, STORE_HANDOFF_DUE } from "@/lib/domain/notify/due-events";
import { EVENT_JOBS, JOBS, POLLING_JOBS } from "@/lib/application/jobs/registry";

const ID = "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f";

describe("due events", () => {
  it("a payload is the event's members, each a uuid; anything else is refused", () => {
    expect(DELIVERY_DUE.payload.safeParse({ deliveryId: ID })).toMatchObject({ success: true, data: { deliveryId: ID } });
    expect(STORE_HANDOFF_DUE.payload.safeParse({ paymentId: ID })).toMatchObject({ success: true, data: { paymentId: ID } });
    for (const bad of [{ deliveryId: "not-a-uuid" }, { paymentId: ID }, {}, null, "x", { deliveryId: 7 }]) {
      expect(DELIVERY_DUE.payload.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("announce is typed by the descriptor (checked by tsc: each line below must be a type error)", () => {
    // Never called: the announcements are here for the type checker only.
    const typeChecks = () => {
      // @ts-expect-error a delivery is announced by its deliveryId
      announce(DELIVERY_DUE, [{ paymentId: ID }]);
      // @ts-expect-error a store handoff has no deliveryId
      announce(STORE_HANDOFF_DUE, [{ paymentId: ID, deliveryId: ID }]);
      // @ts-expect-error members are strings
      announce(DELIVERY_DUE, [{ deliveryId: 7 }]);
      announce(DELIVERY_DUE, [{ deliveryId: ID }]);
    };
    expect(typeof typeChecks).toBe("function");
  });
});

describe("the registry", () => {
  it("lists every job once, polling and event-driven", () => {
    const ids = JOBS.map((job) => job.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...POLLING_JOBS, ...EVENT_JOBS].map((job) => job.id).sort()).toEqual([...ids].sort());
    expect(EVENT_JOBS.map((job) => [job.id, job.due.name])).toEqual([
      ["deliver-callback", DELIVERY_DUE.name],
      ["store-handoff", STORE_HANDOFF_DUE.name],
    ]);
  });

  it("every event-driven job's due event is caught up by a polling job of the registry", () => {
    const polling = POLLING_JOBS.map((job) => job.id);
    for (const job of EVENT_JOBS) expect(polling, job.id).toContain(job.due.catchUpJobId);
    expect(EVENT_JOBS.map((job) => job.due.catchUpJobId)).toEqual(["deliver-due-callbacks", "store-handoffs"]);
  });
});
