import http from "node:http";

// Create load across a stop (docs/operating.md "Stopping"): used by test/integration/drain.test.ts and bench/drain.ts.
// Clients create payments on the first instance over kept-alive connections; one that gets no answer there retries
// the same Idempotency-Key and body on the second, as a load balancer would.

/** One attempt's outcome: an answer (status, whether its body arrived whole), a refused connection, or a reset. */
export type Outcome =
  | { kind: "answer"; status: number; id?: string }
  | { kind: "cut"; status: number }
  | { kind: "refused"; code: string }
  | { kind: "reset"; code: string; reused: boolean };

/** An attempt as recorded: which instance, when (ms, Date.now()), what came of it. */
export type Attempt = { instance: "first" | "second"; at: number; outcome: Outcome };

/**
 * Sends one create over `agent` and classifies what came back. A connection refused (ECONNREFUSED) never carried the
 * request; anything else without an answer (ECONNRESET, "socket hang up", EPIPE) is a reset: the request may have been
 * sent. `reused` says whether the socket had carried an earlier request (a kept-alive connection).
 */
function attempt(agent: http.Agent, base: string, headers: Record<string, string>, key: string, body: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let reused = false;
    const req = http.request(
      `${base}/v1/payments`,
      {
        method: "POST",
        agent,
        headers: { ...headers, "content-type": "application/json", "idempotency-key": key, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("error", () => resolve({ kind: "cut", status: res.statusCode ?? 0 }));
        res.on("aborted", () => resolve({ kind: "cut", status: res.statusCode ?? 0 }));
        res.on("end", () => {
          try {
            resolve({ kind: "answer", status: res.statusCode ?? 0, id: (JSON.parse(text) as { id?: string }).id });
          } catch {
            resolve({ kind: "cut", status: res.statusCode ?? 0 });
          }
        });
      },
    );
    req.on("socket", (socket) => {
      reused = (socket as { _sandpiperUsed?: boolean })._sandpiperUsed === true;
      (socket as { _sandpiperUsed?: boolean })._sandpiperUsed = true;
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      resolve(code === "ECONNREFUSED" ? { kind: "refused", code } : { kind: "reset", code, reused });
    });
    req.end(body);
  });
}

export type DrainRun = {
  attempts: Attempt[];
  /** Idempotency-Key -> the payment id its 201 answer named. */
  finals: Map<string, string>;
  exitCode: number | null;
  /** The attempts whose outcome is a reset, an answer of 5xx, or cut. */
  of(what: "reset" | "5xx" | "cut"): Attempt[];
  figures: {
    keys: number;
    answeredByFirst: number;
    answeredByFirstAfterSigterm: number;
    refusedThenRetried: number;
    resets: number;
    answered5xx: number;
    cutMidAnswer: number;
    stopMs: number;
  };
};

/**
 * Runs `clients` clients creating payments one after another on `first` (fresh Idempotency-Key and body each), calls
 * `stop` after `warmMs` (it signals the first instance and resolves with its exit code once it exited), and goes on
 * until a second after it exited. A create that gets no answer on the first, or a 5xx, is retried with the same key
 * and body on `second`; any other answer that is not 201 throws.
 */
export async function createsUntilStopped(opts: {
  clients: number;
  agent: http.Agent;
  first: string;
  second: string;
  headers: Record<string, string>;
  body: () => Record<string, unknown>;
  key: () => string;
  stop: () => Promise<number | null>;
  warmMs?: number;
}): Promise<DrainRun> {
  const attempts: Attempt[] = [];
  const finals = new Map<string, string>();
  let signalledAt = Infinity;
  let exitedAt = Infinity;
  const client = async () => {
    let target: "first" | "second" = "first";
    while (Date.now() < exitedAt + 1_000) {
      const key = opts.key();
      const body = JSON.stringify(opts.body());
      for (;;) {
        const outcome = await attempt(opts.agent, target === "first" ? opts.first : opts.second, opts.headers, key, body);
        attempts.push({ instance: target, at: Date.now(), outcome });
        if (outcome.kind === "answer" && outcome.status === 201) {
          finals.set(key, outcome.id!);
          break;
        }
        if (outcome.kind === "answer" && outcome.status < 500) throw new Error(`unexpected ${outcome.status}`);
        target = "second"; // the load balancer's next instance
      }
    }
  };
  const load = Promise.all(Array.from({ length: opts.clients }, client));
  // waits on purpose: the load runs for a while before the stop (a window of time, not a state)
  await new Promise((r) => setTimeout(r, opts.warmMs ?? 4_000));
  signalledAt = Date.now();
  const exitCode = await opts.stop();
  exitedAt = Date.now();
  await load;

  const of = (what: "reset" | "5xx" | "cut") =>
    attempts.filter((a) =>
      what === "reset" ? a.outcome.kind === "reset" : what === "cut" ? a.outcome.kind === "cut" : a.outcome.kind === "answer" && a.outcome.status >= 500,
    );
  const answeredByFirst = attempts.filter((a) => a.instance === "first" && a.outcome.kind === "answer");
  return {
    attempts,
    finals,
    exitCode,
    of,
    figures: {
      keys: finals.size,
      answeredByFirst: answeredByFirst.length,
      answeredByFirstAfterSigterm: answeredByFirst.filter((a) => a.at > signalledAt).length,
      refusedThenRetried: attempts.filter((a) => a.outcome.kind === "refused").length,
      resets: of("reset").length,
      answered5xx: of("5xx").length,
      cutMidAnswer: of("cut").length,
      stopMs: exitedAt - signalledAt,
    },
  };
}
