import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@/scripts/db.mjs";
import { realInstant } from "@/lib/platform/clock";
import { waitUntil } from "@/scripts/harness/wait";
import { probeConnects } from "@/lib/contract/callbacks/address-probe";
import { MAX_REFUSAL_WAIT_MS, recordAccepted, recordRefusal, refusalWaitMs, refusingUntil } from "@/lib/domain/callbacks/refusing-addresses";

// docs/callbacks.md "An address that refuses connections": the wait after refusals in a row, and the probe that ends
// it, against real loopback ports.

const servers: net.Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((ok) => s.close(ok))));
});

/** A loopback port that nothing listens on: a free one, opened and closed again (scripts/db.mjs). */
const closedPort = async (): Promise<number> => (await freePort()) as number;

async function listenOn(port: number): Promise<net.Server> {
  const server = net.createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((ok) => server.listen(port, "127.0.0.1", ok));
  return server;
}

describe("refusal waits", () => {
  it("start at 30 s, double at each refusal in a row, stop at 5 min; fast retries divide by 60", () => {
    expect([1, 2, 3, 4, 5, 6, 8, 50].map((n) => refusalWaitMs(n))).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000, 300_000, 300_000]);
    expect(refusalWaitMs(8, { fastRetries: true })).toBe(MAX_REFUSAL_WAIT_MS / 60);
    expect(() => refusalWaitMs(0)).toThrow(RangeError);
  });
});

describe("the probe of a refusing address", () => {
  it("connects only where something listens, and sends nothing", async () => {
    const port = await closedPort();
    expect(await probeConnects({ address: "127.0.0.1", family: 4, port })).toBe(false);
    let bytes = 0;
    const server = net.createServer((socket) => socket.on("data", (b) => (bytes += b.length)));
    servers.push(server);
    await new Promise<void>((ok) => server.listen(port, "127.0.0.1", ok));
    expect(await probeConnects({ address: "127.0.0.1", family: 4, port })).toBe(true);
    // waits on purpose: nothing arriving is what is checked, so no condition marks the end of the wait
    await new Promise((ok) => setTimeout(ok, 50));
    expect(bytes).toBe(0);
  });

  it.each([1, 8])("after %i refusal(s) in a row, ends the wait within about a second of the address listening, releasing once", async (refusals) => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/hook-${refusals}`;
    const released: string[] = [];
    const release = async (u: string) => void released.push(u);
    const first = realInstant(Date.now());
    let wait = recordRefusal(url, first, { fastRetries: false }, { address: "127.0.0.1", family: 4, port }, release);
    for (let n = 2; n <= refusals; n++) wait = recordRefusal(url, realInstant(Date.now()), { fastRetries: false }, null, release);
    // The refusals in a row began with the first; the wait is the refusals' (up to 5 min), and it lasts.
    expect(wait.since.getTime()).toBe(first.getTime());
    expect(wait.until.getTime() - Date.now()).toBeGreaterThan(refusalWaitMs(refusals) - 5_000);
    // waits on purpose: past a probe round or two, nothing has changed while the address still refuses
    await new Promise((ok) => setTimeout(ok, 1_500));
    expect(refusingUntil(url, realInstant(Date.now()))).toEqual(wait);
    expect(released).toEqual([]);

    await listenOn(port);
    const listening = Date.now();
    await waitUntil(() => released.length > 0, { what: "the probe's release", timeoutMs: 5_000, intervalMs: 20 });
    expect(released).toEqual([url]);
    expect(Date.now() - listening).toBeLessThan(2_000);
    expect(refusingUntil(url, realInstant(Date.now()))).toBeNull();
    // waits on purpose: a later probe round must not release again, so no condition marks the end of the wait
    await new Promise((ok) => setTimeout(ok, 1_200));
    expect(released).toEqual([url]);
  });

  it("an accepted connection forgets the refusals: the next refusal starts a new run", () => {
    const url = "http://127.0.0.1:9/forget";
    const at = realInstant(Date.now());
    recordRefusal(url, at, { fastRetries: false }, null, async () => undefined);
    recordRefusal(url, at, { fastRetries: false }, null, async () => undefined);
    expect(recordAccepted(url, at)).toBe(true);
    expect(refusingUntil(url, at)).toBeNull();
    const again = recordRefusal(url, at, { fastRetries: false }, null, async () => undefined);
    expect(again.until.getTime() - at.getTime()).toBe(refusalWaitMs(1));
    // Accepted after the wait has ended: nothing is left to release.
    expect(recordAccepted(url, realInstant(again.until.getTime() + 1))).toBe(false);
  });
});
