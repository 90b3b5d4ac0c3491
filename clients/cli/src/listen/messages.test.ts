import { describe, expect, it } from "vitest";
import { EventStreamPage } from "@/lib/contract/schemas/api/events";
import { ItemMessage, parseMessage, ReadyMessage, StateFile } from "./messages";

const item = {
  cursor: "42",
  kind: "event",
  eventId: "6f1c2a7e-9d4b-4c1e-8a53-2b7d0f6e9a10",
  type: "payment.succeeded",
  createdAt: "2026-11-26T10:00:00.000Z",
  paymentId: "0b8e5c1d-3f2a-4e6b-9c7d-1a2b3c4d5e6f",
  reference: "order-1",
  body: '{"id":"6f1c2a7e-9d4b-4c1e-8a53-2b7d0f6e9a10"}',
  chaos: null,
};

describe("the listener's reading of the event stream", () => {
  it("reads an item the service documents (members it does not use, such as createdAt, are accepted)", () => {
    expect(EventStreamPage.parse({ items: [item], cursor: "42" }).items[0]).toEqual(item);
    expect(parseMessage(ItemMessage, "item", JSON.stringify({ ...item, addedLater: true }))).toMatchObject({ cursor: "42", body: item.body, chaos: null });
  });

  it("relies only on members the service's FeedItem schema has", () => {
    const documented = Object.keys(EventStreamPage.shape.items.element.shape);
    expect(Object.keys(ItemMessage.shape).filter((member) => !documented.includes(member))).toEqual([]);
  });

  it("refuses an item missing a member or with a bad cursor, naming what is wrong", () => {
    const { body: _body, ...withoutBody } = item;
    expect(() => parseMessage(ItemMessage, "item", JSON.stringify(withoutBody))).toThrow(/^the service sent a malformed item event: body: /);
    expect(() => parseMessage(ItemMessage, "item", JSON.stringify({ ...item, cursor: "-1" }))).toThrow(
      "the service sent a malformed item event: cursor: expected a feed position (decimal digits)",
    );
    expect(() => parseMessage(ItemMessage, "item", JSON.stringify({ ...item, chaos: { kinds: ["explode"], delayMs: 0 } }))).toThrow(/chaos\.kinds\.0/);
  });

  it("refuses text that is not JSON", () => {
    expect(() => parseMessage(ReadyMessage, "ready", "{")).toThrow("the service sent a malformed ready event: not JSON");
  });

  it("reads ready with its heartbeat and header names", () => {
    const ready = parseMessage(
      ReadyMessage,
      "ready",
      JSON.stringify({ cursor: "0", heartbeatSeconds: 15, headers: { eventId: "X-Service-Event-Id", other: "x" } }),
    );
    expect(ready).toEqual({ cursor: "0", heartbeatSeconds: 15, headers: { eventId: "X-Service-Event-Id" } });
    expect(() => parseMessage(ReadyMessage, "ready", JSON.stringify({ cursor: "0", heartbeatSeconds: 0, headers: { eventId: "X" } }))).toThrow(
      /heartbeatSeconds/,
    );
  });
});

describe("the listener's state file", () => {
  it("keeps the cursor and the delivered positions, dropping entries that are not positions", () => {
    expect(StateFile.parse({ apiUrl: "http://x", cursor: "7", delivered: ["9", 10, "x", "11"], updatedAt: "t" })).toEqual({
      cursor: "7",
      delivered: ["9", "11"],
    });
    expect(StateFile.parse({ cursor: "7" })).toEqual({ cursor: "7", delivered: undefined });
  });

  it("is not one without a cursor that is a position", () => {
    expect(StateFile.safeParse({ cursor: 7 }).success).toBe(false);
    expect(StateFile.safeParse({ cursor: "7a" }).success).toBe(false);
  });
});
