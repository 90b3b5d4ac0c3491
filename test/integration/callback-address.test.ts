import { afterEach, describe, expect, it, vi } from "vitest";
import { db, newMerchant } from "../support/fixtures";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import type { Resolver } from "@/lib/domain/callbacks/url-policy";

// docs/callbacks.md address policy, exercised through the function the console calls when an address is saved.
// Host names in the first table are resolved by the machine's real resolver; the DNS table stands in for
// DNS with fixed answers (the only part replaced), so each class of non-public address is covered.

afterEach(() => vi.unstubAllEnvs());

/** A DNS stand-in: every name resolves to the given addresses. */
const dnsAnswers =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

async function expectRefused(url: string, reason: string | RegExp, resolve?: Resolver) {
  const m = await newMerchant();
  const attempt = setCallbackUrl(db, { merchantId: m.merchant.id, url }, { resolve });
  await expect(attempt).rejects.toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
  const error = await attempt.catch((e: Error) => e);
  expect((error as Error).message).toMatch(typeof reason === "string" ? `callbackUrl: ${reason}` : reason);
  // Nothing changed.
  expect(await db.merchant.findUniqueOrThrow({ where: { id: m.merchant.id }, select: { callbackUrl: true, callbackSecret: true } })).toEqual({
    callbackUrl: null,
    callbackSecret: null,
  });
}

describe("setCallbackUrl: address policy (no loopback allowance)", () => {
  it.each([
    ["", "an address is required"],
    ["not a url", "not a valid absolute URL"],
    [`https://hooks.example.com/${"a".repeat(2048)}`, "at most 2048 characters"],
    ["http://hooks.example.com/cb", "scheme must be https"],
    ["ftp://hooks.example.com/cb", "scheme must be https"],
    ["https://user:secret@hooks.example.com/cb", "URL must not contain a user name or password"],
    ["https://hooks.example.com:8443/cb", "port must be 443"],
    ["https://hooks.example.com:80/cb", "port must be 443"],
    ["https://93.184.216.34/cb", "host must be a DNS name, not an IP address"],
    ["https://2130706433/cb", "host must be a DNS name, not an IP address"],
    ["https://[2606:4700:4700::1111]/cb", "host must be a DNS name, not an IP address"],
    ["https://[::ffff:127.0.0.1]/cb", "host must be a DNS name, not an IP address"],
    ["https://[::ffff:10.0.0.1]/cb", "host must be a DNS name, not an IP address"],
    ["https://[::1]/cb", "host must be a DNS name, not an IP address"],
    ["http://127.0.0.1:8080/cb", "scheme must be https"],
    ["https://unknown-host.invalid/cb", "host name could not be resolved"],
  ])("refuses %j", async (url, reason) => {
    vi.stubEnv("CALLBACK_ALLOW_LOOPBACK", "");
    await expectRefused(url, reason);
  });

  it("refuses a host name resolving to 127.0.0.1 (real resolver, /etc/hosts)", async () => {
    vi.stubEnv("CALLBACK_ALLOW_LOOPBACK", "");
    const answers = await import("node:dns").then((dns) => dns.promises.lookup("localhost", { all: true }));
    expect(answers.map((a) => a.address)).toContain("127.0.0.1");
    await expectRefused(
      "https://localhost:443/hooks",
      /^callbackUrl: host resolves to non-public address (127\.0\.0\.1|::1); for a receiver on your own machine, run "sandpiper listen/,
    );
  });

  it.each([
    ["private 10/8", "10.1.2.3"],
    ["private 172.16/12", "172.16.5.4"],
    ["private 192.168/16", "192.168.1.10"],
    ["loopback 127/8", "127.0.0.1"],
    ["link-local 169.254/16 (cloud metadata)", "169.254.169.254"],
    ["CGNAT 100.64/10", "100.64.0.1"],
    ["multicast 224/4", "224.0.0.251"],
    ["unspecified 0.0.0.0", "0.0.0.0"],
    ["broadcast", "255.255.255.255"],
    ["documentation 192.0.2/24", "192.0.2.10"],
    ["IPv6 loopback", "::1"],
    ["IPv6 unique local fc00::/7", "fd12:3456:789a::1"],
    ["IPv6 link-local fe80::/10", "fe80::1"],
    ["IPv6 multicast ff00::/8", "ff02::1"],
    ["IPv4-mapped IPv6 of a private address", "::ffff:10.0.0.1"],
    ["IPv4-mapped IPv6 of loopback", "::ffff:127.0.0.1"],
    ["NAT64 64:ff9b::/96", "64:ff9b::a00:1"],
  ])("refuses a host name that resolves to %s (%s)", async (_class, address) => {
    vi.stubEnv("CALLBACK_ALLOW_LOOPBACK", "");
    await expectRefused("https://hooks.example.com/cb", `host resolves to non-public address ${address}`, dnsAnswers(address));
  });

  it("refuses a host name with one public and one private address (every address must be public)", async () => {
    vi.stubEnv("CALLBACK_ALLOW_LOOPBACK", "");
    await expectRefused("https://hooks.example.com/cb", "host resolves to non-public address 10.0.0.7", dnsAnswers("93.184.216.34", "10.0.0.7"));
  });

  it("refuses an unknown merchant with NOT_FOUND", async () => {
    await expect(setCallbackUrl(db, { merchantId: "00000000-0000-4000-8000-000000000000", url: "http://127.0.0.1:9/cb" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(setCallbackUrl(db, { merchantId: "not-a-uuid", url: "http://127.0.0.1:9/cb" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("setCallbackUrl: accepted addresses and the secret", () => {
  it("accepts a public https address on 443, stores it normalised and returns a new whsec_ secret on every save", async () => {
    vi.stubEnv("CALLBACK_ALLOW_LOOPBACK", "");
    const m = await newMerchant();
    const resolve = dnsAnswers("93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946");
    const first = await setCallbackUrl(db, { merchantId: m.merchant.id, url: "  https://Hooks.Example.com:443/cb?shop=1 " }, { resolve });
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9]{44}$/);
    let stored = await db.merchant.findUniqueOrThrow({ where: { id: m.merchant.id } });
    expect(stored).toMatchObject({ callbackUrl: "https://hooks.example.com/cb?shop=1", callbackSecret: first.secret });

    const second = await setCallbackUrl(db, { merchantId: m.merchant.id, url: "https://hooks.example.com/other" }, { resolve });
    expect(second.secret).not.toBe(first.secret);
    stored = await db.merchant.findUniqueOrThrow({ where: { id: m.merchant.id } });
    expect(stored).toMatchObject({ callbackUrl: "https://hooks.example.com/other", callbackSecret: second.secret });
  });

  it("CALLBACK_ALLOW_LOOPBACK=1 allows only loopback receivers (any port, http), and never under NODE_ENV=production", async () => {
    const m = await newMerchant();
    vi.stubEnv("CALLBACK_ALLOW_LOOPBACK", "1");
    await expect(setCallbackUrl(db, { merchantId: m.merchant.id, url: "http://127.0.0.1:9/cb" })).resolves.toHaveProperty("secret");
    await expect(setCallbackUrl(db, { merchantId: m.merchant.id, url: "http://localhost:9/cb" })).resolves.toHaveProperty("secret");
    await expect(setCallbackUrl(db, { merchantId: m.merchant.id, url: "http://[::1]:9/cb" })).resolves.toHaveProperty("secret");
    // The allowance relaxes nothing for other hosts.
    await expectRefused("http://10.0.0.1:9/cb", "scheme must be https");
    await expectRefused("https://hooks.example.com/cb", "host resolves to non-public address 192.168.0.1", dnsAnswers("192.168.0.1"));
    vi.stubEnv("NODE_ENV", "production");
    await expectRefused("http://127.0.0.1:9/cb", "scheme must be https");
    await expectRefused("https://localhost/cb", /non-public address/);
  });

  it("a refused local address says how to receive callbacks on your own machine; a refused public one does not", async () => {
    vi.stubEnv("CALLBACK_ALLOW_LOOPBACK", "");
    for (const url of ["http://localhost:4000/hook", "http://127.0.0.1:4000/hook", "https://192.168.1.20/hook"]) {
      await expectRefused(
        url,
        /; for a receiver on your own machine, run "sandpiper listen --forward-to <your local address>" \(docs\/guides\/command-line\.md "The sandpiper command"\)/,
      );
    }
    await expectRefused("https://hooks.example.com:8443/cb", /^callbackUrl: port must be 443$/);
  });
});
