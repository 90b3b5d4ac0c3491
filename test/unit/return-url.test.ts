import { describe, expect, it } from "vitest";
import { checkReturnUrl, returnLinks, returnUrlOrThrow } from "@/lib/domain/addresses/return-url";
import { isLoopbackHost } from "@/lib/domain/addresses/loopback";

// docs/api.md "Returning to your site": the return address rule, kin of the callback address rule.

describe("return addresses", () => {
  it("accepts https on any host and port, as the URL parser writes it", () => {
    expect(checkReturnUrl("https://shop.example/orders/42?x=1#done", false)).toEqual({ ok: true, url: "https://shop.example/orders/42?x=1#done" });
    expect(checkReturnUrl("HTTPS://Shop.Example:8443/a", false)).toEqual({ ok: true, url: "https://shop.example:8443/a" });
  });

  it("refuses http, other schemes, credentials, relative and padded addresses, and over-long ones", () => {
    for (const [url, reason] of [
      ["http://shop.example/", /scheme must be https/],
      ["javascript:alert(1)", /scheme must be https/],
      ["ftp://shop.example/", /scheme must be https/],
      ["https://user:pw@shop.example/", /user name or password/],
      ["/orders/42", /absolute https address/],
      [" https://shop.example/", /absolute https address/],
      ["https://shop.example/" + "a".repeat(2048), /at most 2048 characters/],
    ] as const) {
      const check = checkReturnUrl(url, true);
      expect(check.ok, url).toBe(false);
      if (!check.ok) expect(check.reason, url).toMatch(reason);
    }
  });

  it("an address on this machine only in local mode, there over http or https", () => {
    for (const url of ["http://localhost:3000/back", "http://127.0.0.1:8080/", "https://[::1]/x", "http://LOCALHOST./y", "http://127.1/"]) {
      expect(checkReturnUrl(url, true).ok, url).toBe(true);
      const refused = checkReturnUrl(url, false);
      expect(refused.ok, url).toBe(false);
      if (!refused.ok) expect(refused.reason).toMatch(/only in local mode/);
    }
    // Other private addresses are not this machine: https only, as any host.
    expect(checkReturnUrl("http://10.0.0.1/", true).ok).toBe(false);
    expect(checkReturnUrl("https://10.0.0.1/", true).ok).toBe(true);
  });

  it("the loopback host test is the callback rule's: literals in any form and the name localhost", () => {
    expect(isLoopbackHost(new URL("http://0x7f.1/"))).toBe(true);
    expect(isLoopbackHost(new URL("http://[::ffff:127.0.0.1]/"))).toBe(true);
    expect(isLoopbackHost(new URL("http://localhost.example/"))).toBe(false);
    expect(isLoopbackHost(new URL("http://128.0.0.1/"))).toBe(false);
  });

  it("returnUrlOrThrow names the member and leaves absent addresses absent", () => {
    expect(returnUrlOrThrow("returnUrl", undefined)).toBeNull();
    expect(returnUrlOrThrow("cancelUrl", "")).toBeNull();
    expect(() => returnUrlOrThrow("cancelUrl", "http://shop.example/")).toThrow(/^cancelUrl: scheme must be https/);
  });

  it("links: the own address first, then the merchant's default; leaving falls back to the return address", () => {
    expect(returnLinks({ returnUrl: null, cancelUrl: null }, null)).toEqual({ done: null, leave: null });
    expect(returnLinks({ returnUrl: null, cancelUrl: null }, "https://d/")).toEqual({ done: "https://d/", leave: "https://d/" });
    expect(returnLinks({ returnUrl: "https://r/", cancelUrl: null }, "https://d/")).toEqual({ done: "https://r/", leave: "https://r/" });
    expect(returnLinks({ returnUrl: null, cancelUrl: "https://c/" }, "https://d/")).toEqual({ done: "https://d/", leave: "https://c/" });
  });
});
