// The messages between startSandpiper (index.ts) and the sandbox's process (child.ts), over Node's IPC channel.

/** What the sandbox serves with, as the caller's options resolve (docs/guides/test-in-your-own-suite.md "Options"). */
export type ResolvedOptions = {
  callbackUrl: string | null;
  port: number;
  scenarioRules: "none" | "standard";
  fastRetries: boolean;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  startTimeoutMs: number;
};

/** A seeded console user. */
export type ConsoleUser = { username: string; password: string };

/** What the package's database was seeded with when it was packed (`db/seed.json`). */
export type Prepared = {
  merchantId: string;
  keys: { full: string; readOnly: string; secondMerchant: string; amountEntry: string };
  users: Record<string, ConsoleUser>;
};

/** What a started sandbox tells its caller (the command prints it as one JSON line). */
export type SandboxInfo = {
  url: string;
  apiKey: string;
  keys: Prepared["keys"];
  merchantId: string;
  callbackSecret: string | null;
  /** The bearer token of POST /v1/sandbox/merchants, new at each start. */
  sandboxToken: string;
  console: { url: string; users: Record<string, ConsoleUser> };
};

export type ChildRequest = { type: "start"; id: 0; options: ResolvedOptions } | { type: "reset" | "stop"; id: number };

export type ChildReply = { type: "ready"; info: SandboxInfo } | { type: "done"; id: number } | { type: "failed"; id: number; message: string };
