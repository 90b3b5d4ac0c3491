import net from "node:net";

/**
 * A TCP proxy on a loopback port in front of PostgreSQL, for fault tests that must not touch the shared
 * server: `cut()` drops every connection and refuses new ones (what a database restart looks like to the
 * service), `restore()` lets connections through again, `latencyMs` delays every chunk in both directions,
 * `trap()` holds the traffic of one connection at a chosen point of a transaction, and `partition()` drops every
 * packet (connections open at the time stay silent for good, as TCP's retransmissions back off for minutes).
 */
export class TcpProxy {
  latencyMs = 0;
  /**
   * Round trips the clients asked for since the start (or the last reset to 0): PostgreSQL protocol messages that
   * each wait for an answer, a simple Query ('Q') or the Sync ('S') that ends an extended-protocol query.
   */
  roundTrips = 0;
  /** Statement texts the clients sent to be parsed (extended-protocol Parse, 'P'), since the start or the last reset. */
  parsed: string[] = [];
  private cutOff = false;
  private partitioned = false;
  /** Connections that lived through a partition: nothing they send is forwarded any more. */
  private readonly silenced = new WeakSet<net.Socket>();
  private readonly sockets = new Set<net.Socket>();
  private armed: { pattern: string; when: "before" | "after"; fire: () => void } | null = null;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  /** Starts a proxy on a free loopback port forwarding to `target`. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const holder: { proxy?: TcpProxy } = {};
    const server = net.createServer((client) => holder.proxy!.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    holder.proxy = new TcpProxy(server, (server.address() as net.AddressInfo).port);
    return holder.proxy;
  }

  /** A PostgreSQL URL through this proxy for a database URL on the target. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.host = `127.0.0.1:${this.port}`;
    return url.toString();
  }

  /** Drops every open connection and refuses new ones until restore(). */
  cut(): void {
    this.cutOff = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /**
   * A network partition: every packet is dropped until restore(). Open connections never carry a byte again (their
   * peers see no error, only silence); connections opened meanwhile are accepted and stay silent too.
   */
  partition(): void {
    this.partitioned = true;
    for (const socket of this.sockets) this.silenced.add(socket);
  }

  restore(): void {
    this.cutOff = false;
    this.partitioned = false;
  }

  /**
   * Arms a one-shot trap on the next client chunk containing `pattern` (e.g. "COMMIT"): with "before" that chunk
   * is held and never reaches the database; with "after" it is forwarded and the database's answer is held.
   * Everything after the held chunk on that connection is held too. Resolves when the trap fires.
   */
  trap(pattern: string, when: "before" | "after"): Promise<void> {
    return new Promise((fire) => (this.armed = { pattern, when, fire }));
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: net.Socket, target: { host: string; port: number }) {
    if (this.cutOff) return void client.destroy();
    const upstream = net.connect(target.port, target.host);
    this.sockets.add(client).add(upstream);
    if (this.partitioned) this.silenced.add(client).add(upstream);
    let state: "flowing" | "holdingRequest" | "awaitingAnswer" | "holdingAnswer" = "flowing";
    let fire: (() => void) | null = null;
    const queues = { up: Promise.resolve(), down: Promise.resolve() };
    const send = (direction: "up" | "down", to: net.Socket, chunk: Buffer) => {
      const delay = this.latencyMs;
      queues[direction] = queues[direction]
        // the latency the proxy simulates (a fault it injects, not a wait of the test)
        .then(() => (delay > 0 ? new Promise((resolve) => setTimeout(resolve, delay)) : undefined))
        .then(() => void (to.destroyed ? undefined : to.write(chunk)));
    };
    const count = messageReader({ roundTrip: () => this.roundTrips++, parse: (text) => this.parsed.push(text) });
    client.on("data", (chunk) => {
      if (state === "holdingRequest" || this.silenced.has(client)) return;
      count(chunk);
      const trap = this.armed;
      if (state === "flowing" && trap && chunk.includes(trap.pattern)) {
        this.armed = null;
        if (trap.when === "before") {
          state = "holdingRequest";
          return trap.fire();
        }
        state = "awaitingAnswer";
        fire = trap.fire;
      }
      send("up", upstream, chunk);
    });
    upstream.on("data", (chunk) => {
      if (state === "holdingAnswer" || this.silenced.has(upstream)) return;
      if (state === "awaitingAnswer") {
        state = "holdingAnswer";
        return fire?.();
      }
      send("down", client, chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  }
}

/**
 * Reads one connection's client-to-server byte stream as PostgreSQL protocol messages: `roundTrip` for each simple
 * Query and each Sync, `parse` with the statement text of each Parse. The first message (startup) has no type byte.
 */
function messageReader(on: { roundTrip: () => void; parse: (text: string) => void }): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const header = started ? 5 : 4;
      if (pending.length < header) return;
      const length = started ? pending.readInt32BE(1) + 1 : pending.readInt32BE(0);
      if (pending.length < length) return;
      if (started && (pending[0] === 0x51 || pending[0] === 0x53)) on.roundTrip();
      if (started && pending[0] === 0x50) {
        // Parse: statement name (C string), then the text (C string).
        const nameEnd = pending.indexOf(0, 5);
        on.parse(pending.subarray(nameEnd + 1, pending.indexOf(0, nameEnd + 1)).toString("utf8"));
      }
      started = true;
      pending = pending.subarray(length);
    }
  };
}
