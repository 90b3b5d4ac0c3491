import { isIP } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkCallbackUrl, isPublicAddress, type Resolver } from "./url-policy";

function resolverOf(...addresses: string[]) {
  return vi.fn<Resolver>(async () => addresses.map((address) => ({ address, family: isIP(address) === 6 ? (6 as const) : (4 as const) })));
}

const PUBLIC_V4 = "93.184.215.14";
const PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("checkCallbackUrl rejects before resolving", () => {
  const cases: [string, string, RegExp][] = [
    ["not a URL", "hooks.example.com/callback", /valid absolute URL/],
    ["http scheme", "http://hooks.example.com/callback", /^scheme must be https$/],
    ["other scheme", "ftp://hooks.example.com/callback", /^scheme must be https$/],
    ["port 8443", "https://hooks.example.com:8443/callback", /^port must be 443$/],
    ["port 80 on https", "https://hooks.example.com:80/callback", /^port must be 443$/],
    ["userinfo", "https://user:pass@hooks.example.com/callback", /user name or password/],
    ["user only", "https://user@hooks.example.com/callback", /user name or password/],
    ["raw public IPv4", `https://${PUBLIC_V4}/callback`, /not an IP address/],
    ["raw loopback IPv4", "https://127.0.0.1/callback", /not an IP address/],
    ["raw IPv6", `https://[${PUBLIC_V6}]/callback`, /not an IP address/],
    ["raw IPv6 loopback", "https://[::1]/callback", /not an IP address/],
    ["raw IPv4-mapped IPv6", "https://[::ffff:127.0.0.1]/callback", /not an IP address/],
    ["decimal IP form", "https://2130706433/callback", /not an IP address/],
    ["hex shorthand IP form", "https://0x7f.1/callback", /not an IP address/],
    ["octal IP form", "https://017700000001/callback", /not an IP address/],
    ["three-part IP form", "https://10.1.2/callback", /not an IP address/],
  ];
  for (const [name, url, reason] of cases) {
    it(name, async () => {
      const resolve = resolverOf(PUBLIC_V4);
      const result = await checkCallbackUrl(url, { resolve });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(reason);
      expect(resolve).not.toHaveBeenCalled();
    });
  }
});

describe("checkCallbackUrl rejects host names resolving to non-public addresses", () => {
  const addresses = [
    "127.0.0.1",
    "127.8.9.10",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "0.0.0.0",
    "192.0.2.1",
    "198.18.0.1",
    "240.0.0.1",
    "::1",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::7f00:1",
    "64:ff9b::a00:1",
    "2002:a00:1::1",
    "2001:0:4136:e378:8000:63bf:f5ff:fffe",
    "2001:db8::1",
  ];
  for (const address of addresses) {
    it(address, async () => {
      const result = await checkCallbackUrl("https://hooks.example.com/callback", { resolve: resolverOf(address) });
      expect(result).toEqual({ ok: false, reason: `host resolves to non-public address ${address}` });
    });
  }

  it("one public plus one private address", async () => {
    const result = await checkCallbackUrl("https://hooks.example.com/callback", { resolve: resolverOf(PUBLIC_V4, "10.0.0.1") });
    expect(result).toEqual({ ok: false, reason: "host resolves to non-public address 10.0.0.1" });
  });

  it("a resolver failure, an empty answer or a malformed address", async () => {
    const failing = vi.fn<Resolver>(async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    });
    expect(await checkCallbackUrl("https://hooks.example.com/", { resolve: failing })).toEqual({ ok: false, reason: "host name could not be resolved" });
    expect(await checkCallbackUrl("https://hooks.example.com/", { resolve: resolverOf() })).toEqual({ ok: false, reason: "host name could not be resolved" });
    const weird = vi.fn<Resolver>(async () => [{ address: "2130706433", family: 4 }]);
    expect(await checkCallbackUrl("https://hooks.example.com/", { resolve: weird })).toEqual({ ok: false, reason: "host name resolved to an invalid address" });
  });

  it("localhost with the real resolver", async () => {
    const result = await checkCallbackUrl("https://localhost/callback");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/non-public address|could not be resolved/);
  });
});

describe("checkCallbackUrl accepts", () => {
  it("a public host name on 443 and pins the first resolved address", async () => {
    const resolve = resolverOf(PUBLIC_V4, PUBLIC_V6);
    const result = await checkCallbackUrl("https://Hooks.Example.com/callback?x=1", { resolve });
    expect(resolve).toHaveBeenCalledWith("hooks.example.com");
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.address).toBe(PUBLIC_V4);
      expect(result.family).toBe(4);
      expect(result.url.href).toBe("https://hooks.example.com/callback?x=1");
    }
  });

  it("an explicit :443 and an IPv6-only host", async () => {
    const result = await checkCallbackUrl("https://hooks.example.com:443/cb", { resolve: resolverOf(PUBLIC_V6) });
    expect(result).toMatchObject({ ok: true, address: PUBLIC_V6, family: 6 });
  });

  it("a public IPv4-mapped IPv6 answer", async () => {
    const result = await checkCallbackUrl("https://hooks.example.com/cb", { resolve: resolverOf("::ffff:8.8.8.8") });
    expect(result).toMatchObject({ ok: true, address: "::ffff:8.8.8.8", family: 6 });
  });
});

describe("checkCallbackUrl with allowLoopback", () => {
  const allow = { allowLoopback: true };

  it("allows http and https to 127.0.0.0/8 and [::1] on any port without resolving", async () => {
    const resolve = resolverOf("10.0.0.1");
    expect(await checkCallbackUrl("http://127.0.0.1:3000/hook", { ...allow, resolve })).toMatchObject({ ok: true, address: "127.0.0.1", family: 4 });
    expect(await checkCallbackUrl("https://127.0.0.2:8443/hook", { ...allow, resolve })).toMatchObject({ ok: true, address: "127.0.0.2", family: 4 });
    expect(await checkCallbackUrl("http://[::1]:8080/hook", { ...allow, resolve })).toMatchObject({ ok: true, address: "::1", family: 6 });
    expect(resolve).not.toHaveBeenCalled();
  });

  it("allows localhost only when every address is loopback", async () => {
    expect(await checkCallbackUrl("http://localhost:3000/hook", { ...allow, resolve: resolverOf("127.0.0.1", "::1") })).toMatchObject({
      ok: true,
      address: "127.0.0.1",
    });
    expect(await checkCallbackUrl("http://localhost:3000/hook", { ...allow, resolve: resolverOf("127.0.0.1", "10.0.0.1") })).toEqual({
      ok: false,
      reason: "host resolves to non-loopback address 10.0.0.1",
    });
  });

  it("allows localhost with the real resolver", async () => {
    const result = await checkCallbackUrl("http://localhost:3000/hook", allow);
    expect(result.ok).toBe(true);
    if (result.ok) expect(["127.0.0.1", "::1"]).toContain(result.address);
  });

  it("relaxes nothing else", async () => {
    const cases: [string, Resolver, RegExp][] = [
      ["http://hooks.example.com/cb", resolverOf(PUBLIC_V4), /scheme must be https/],
      ["https://hooks.example.com:8443/cb", resolverOf(PUBLIC_V4), /port must be 443/],
      ["http://10.0.0.1:3000/cb", resolverOf(), /scheme must be https/],
      ["https://10.0.0.1/cb", resolverOf(), /not an IP address/],
      ["https://hooks.example.com/cb", resolverOf("127.0.0.1"), /non-public address 127.0.0.1/],
      ["http://user:pw@127.0.0.1:3000/cb", resolverOf(), /user name or password/],
      ["ftp://127.0.0.1:21/cb", resolverOf(), /scheme must be https/],
    ];
    for (const [url, resolve, reason] of cases) {
      const result = await checkCallbackUrl(url, { ...allow, resolve });
      expect(result.ok, url).toBe(false);
      if (!result.ok) expect(result.reason, url).toMatch(reason);
    }
  });

  it("is refused when NODE_ENV=production", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const result = await checkCallbackUrl("http://127.0.0.1:3000/hook", allow);
    expect(result).toEqual({ ok: false, reason: "loopback callback addresses are refused when NODE_ENV=production" });
  });
});

describe("isPublicAddress", () => {
  it.each([
    ["8.8.8.8", true],
    [PUBLIC_V4, true],
    ["1.1.1.1", true],
    [PUBLIC_V6, true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["172.20.0.1", false],
    ["192.168.0.10", false],
    ["169.254.1.1", false],
    ["100.127.255.255", false],
    ["0.0.0.0", false],
    ["239.255.255.250", false],
    ["255.255.255.255", false],
    ["198.51.100.7", false],
    ["203.0.113.9", false],
    ["198.19.1.1", false],
    ["::ffff:192.168.0.1", false],
    ["::ffff:169.254.169.254", false],
    ["::1", false],
    ["::", false],
    ["fe80::1", false],
    ["fe80::1%eth0", false],
    ["fc00::1", false],
    ["fdff::1", false],
    ["ff05::1", false],
    ["2002:7f00:1::", false],
    ["2002:0808:0808::", false],
    ["2001::1", false],
    ["::7f00:1", false],
    ["2001:db8::5", false],
    ["not an ip", false],
    ["", false],
    ["999.1.1.1", false],
  ])("%s -> %s", (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});
