// A soak over simulated weeks: the built service driven through many simulated days by its merchants' sandbox clocks
// (docs/api.md "Sandbox clock"), with steady traffic of every kind and the service's invariants checked at every
// simulated day. The same engine runs short in the suite (test/integration/soak-days.test.ts) and long as a benchmark
// (bench/soak-days.ts). It needs the service at `baseUrl` and its database as DATABASE_URL (the project's getDb()); it
// uses only merchants it creates, so it can run beside other tests.
//
// A simulated day starts just after Dubai midnight (20:00 UTC). Its traffic: payments of every method, direction and
// currency (completed, failed, approved in the console's service, left to expire), a probe of a profile's daily and
// monthly limits, a probe of a velocity rule, amount-entry checkout sessions (quote and confirm helpers), store
// checkouts (READY, then the store's test confirmation), callbacks to a receiver that fails now and then, a running
// `sandpiper listen` whose receiver fails now and then, and request log rows. The clock then moves 45 minutes (the
// gateway deposits' 30 minutes pass, the bank transfers' 60 do not), and on to the next Dubai midnight; after each
// move the run waits until the background jobs have done what is due (`GET /v1/sandbox/clock` `due`), then checks.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { approveFromConsole } from "@/lib/domain/payments/payment-views";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { getDb, transaction } from "@/lib/platform/db";
import { issueApiKey, SCOPES } from "@/lib/domain/keys/api-keys";
import { createMerchant } from "@/lib/domain/merchants/create-merchant";
import { CURRENCIES } from "@/lib/contract/money/currency";
import { dubaiDay, dubaiDayStart } from "@/lib/contract/money/dubai";
import { savePricingVersion } from "@/lib/domain/pricing/profile-versions";
import { SEEDED_USD_DEPOSIT_TERMS } from "@/lib/domain/pricing/seeded-rates";
import { pruneRequestLog, requestLogRetentionDays } from "@/lib/application/request-log/retention";
import { addRiskRule } from "@/lib/domain/risk/velocity-rules";
import { createConsoleUser } from "@/lib/domain/users/create-console-user";
import { listen, waitForLine, type Running } from "./listener";
import { startRobustReceiver } from "./robust-receiver";
import { systemNow } from "@/lib/platform/clock";
import { seededRandom } from "@/lib/simulators/test-store/catalog-synthetic";
import { waitUntil } from "./wait";
import { assertPresent, present } from "./present";

/** What a soak is asked to do. */
export type SoakOptions = {
  /** The running service, e.g. http://127.0.0.1:3000. */
  baseUrl: string;
  /** Simulated days (at least 1; 35 or more crosses a month's end). */
  days: number;
  /** Payments of random kind per day on top of the fixed day's traffic (about 40 requests); 0 for a light load. */
  perDay: number;
  /** API keys (and source IPs) the traffic is spread over, to stay under the per-key and per-IP rate limits. Default 4. */
  keys?: number;
  /** Requests in flight at once within a day's traffic. Default 4. */
  concurrency?: number;
  /** Seed of the random traffic. Default 1. */
  seed?: number;
  /** Called with a line per simulated day (progress). */
  log?: (line: string) => void;
  /**
   * Test hook: called before each clock move with the day and the step's name (`start`, `45m`, `midnight`); answering
   * false skips that move (the run must then fail a check). Default: every move is made.
   */
  moveClock?: (day: number, step: string) => boolean;
};

/** One simulated day's figures. */
export type SoakDay = {
  day: number;
  /** The Dubai day (YYYY-MM-DD) of the merchant's sandbox time at the day's start. */
  dubaiDay: string;
  created: number;
  refused: Record<string, number>;
  expired: number;
  prunedLogs: number;
  /** Real time the simulated day took, ms. */
  ms: number;
};

/** What a whole soak did (every check passed: a failed check throws). */
export type SoakResult = {
  days: number;
  firstDay: string;
  lastDay: string;
  /** Dubai months the run crossed into (a month's end passed). */
  monthEnds: number;
  payments: { created: number; byStatus: Record<string, number> };
  /** Creates refused by code: DAILY_LIMIT, MONTHLY_LIMIT, RISK_REJECTED (all of them expected by the run's model). */
  refused: Record<string, number>;
  /** Limit and velocity roll-overs seen: a refusal followed by an acceptance on the next day / month / window. */
  rollovers: { daily: number; monthly: number; velocity: number };
  checkoutSessions: Record<string, number>;
  storeCheckouts: Record<string, number>;
  callbacks: { events: number; deliveries: number; attempts: number; retried: number; receiverFailures: number };
  /** Of the events read at the end, how many the listener forwarded; `foreign`: forwarded ids that are not the merchant's events. */
  listener: { forwarded: number; foreign: number; receiverFailures: number };
  requestLog: { rows: number; pruned: number };
  requests: { sent: number; rateLimited: number };
  /** Real time, ms: the whole run and per simulated day (median and slowest). */
  realMs: { total: number; dayMedian: number; dayMax: number };
  perDay: SoakDay[];
};

/** A check of the soak that did not hold: names the simulated day and the check. */
export class SoakCheckFailed extends Error {}

const H = 3_600_000;
const DAY = 24 * H;
const COMBOS = [
  { method: "GATEWAY", direction: "DEPOSIT" },
  { method: "BANK_TRANSFER", direction: "DEPOSIT" },
  { method: "BANK_TRANSFER", direction: "WITHDRAWAL" },
] as const;
/** The limit probe's profile: CHF bank-transfer deposits, at most 300.00 a day and 500.00 a month; each probe is 200.00. */
const LIMITS = { currency: "CHF", method: "BANK_TRANSFER", direction: "DEPOSIT", daily: 30_000n, monthly: 50_000n, amount: 20_000n } as const;
/** The velocity probe: at most 1 payment per e-mail per clock hour. */
const VELOCITY_EMAIL = "soak-velocity@example.com";
/** Delays allowed for the background jobs to catch up with a move (real ms). */
const CATCH_UP_MS = 90_000;

type Res = { status: number; body: any; text: string };
type Call = (path: string, opts?: { method?: string; body?: unknown; idem?: string }) => Promise<Res>;

/** A deterministic random source (mulberry32) in [0, 1). */
const random = seededRandom;

/** Runs `work` over `items`, at most `limit` at a time, in order of start. */
async function pool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(present(items[i], "items[i]"), i);
      }
    }),
  );
  return out;
}

/** Polls `check` every `everyMs` until it answers a truthy value; throws `what` after `timeoutMs`. */
async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number, everyMs = 150): Promise<T> {
  return waitUntil(check, { what, timeoutMs, intervalMs: everyMs }).catch((error: Error) => {
    throw error instanceof SoakCheckFailed || !error.message.startsWith("timed out") ? error : new SoakCheckFailed(`${what}: not within ${timeoutMs} ms`);
  });
}

/** The counter key the velocity rules keep for an e-mail (lib/domain/risk/velocity.ts: trimmed, lower-cased, hashed). */
const emailHash = (email: string) => createHash("sha256").update(`EMAIL:${email.trim().toLowerCase()}`).digest("hex");
const minorText = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, "0")}`;
const amountText = (rand: () => number) => minorText(BigInt(1_000 + Math.floor(rand() * 49_000)));
const sumValues = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
const bump = (r: Record<string, number>, key: string, by = 1) => (r[key] = (r[key] ?? 0) + by);

/** A merchant of the soak: its clients (one per key and IP, taken in turn), its users and ids. */
type SoakMerchant = { id: string; call: Call; ownerId: string; approver: { id: string; username: string }; listenKey: string };

/**
 * Drives the service through `days` simulated days (see the file's head) and checks at every day:
 * - creates work in every currency (USD charged in AED through a profile with the seeded USD->AED rate);
 * - the limit probe is refused (409 DAILY_LIMIT / MONTHLY_LIMIT) exactly when its model says, and accepted again the
 *   next Dubai day / month; the velocity probe is refused (403 RISK_REJECTED) within its clock hour and accepted in the
 *   next;
 * - after each clock move, once `due` is zero: every payment and checkout session whose expiresAt passed is EXPIRED
 *   and no expired one expired before its time; the ones not due yet are still pending;
 * - nothing is stuck: no PENDING delivery overdue, no store checkout QUEUED past its handoff time;
 * - the ledger balances per currency, one entry per succeeded payment and none for others; limit counters,
 *   payment_counts and the velocity rule's counters equal a recount from the payments;
 * - the request log keeps what is within REQUEST_LOG_RETENTION_DAYS of the simulated time and prunes what is older.
 * At the end every event reached the callback receiver (delivery SUCCEEDED) and the listener's receiver.
 * @returns the run's figures.
 * @throws SoakCheckFailed naming the simulated day and the check that did not hold; Error on an unexpected answer.
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  if (!Number.isInteger(options.days) || options.days < 1) throw new Error("days: a whole number of at least 1");
  const db = getDb();
  const concurrency = options.concurrency ?? 4;
  const rand = random(options.seed ?? 1);
  const log = options.log ?? (() => {});
  const moveAllowed = options.moveClock ?? (() => true);
  const started = Date.now();
  const requests = { sent: 0, rateLimited: 0 };
  const run = randomUUID().slice(0, 8);
  let dayNo = -1;
  let dayName = "setup";
  const fail = (message: string): never => {
    throw new SoakCheckFailed(`day ${dayNo} (${dayName}): ${message}`);
  };
  const check = (ok: boolean, message: string) => {
    if (!ok) fail(message);
  };

  /** A client of the service as a merchant: keys and source IPs taken in turn; a 429 waits its Retry-After. */
  const client =
    (keys: string[], ips: string[]): Call =>
    async (p, o = {}) => {
      const method = o.method ?? (o.body !== undefined ? "POST" : "GET");
      const idem = o.idem ?? `soak-${randomUUID()}`;
      for (let attempt = 0; ; attempt++) {
        const turn = requests.sent++;
        const headers: Record<string, string> = {
          authorization: `Bearer ${present(keys[turn % keys.length], "a key")}`,
          "x-forwarded-for": present(ips[turn % ips.length], "an address"),
        };
        if (method !== "GET") Object.assign(headers, { "content-type": "application/json", "idempotency-key": idem });
        const res = await fetch(options.baseUrl + p, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
        const text = await res.text();
        if (res.status === 429 && attempt < 5) {
          requests.rateLimited++;
          // waits on purpose: the rate limit's window has to pass (the answer's Retry-After)
          await new Promise((r) => setTimeout(r, Math.min(30, Number(res.headers.get("retry-after") ?? 1)) * 1000));
          continue;
        }
        return { status: res.status, text, body: text ? JSON.parse(text) : null };
      }
    };
  const expect201 = (res: Res, what: string) => check(res.status === 201, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  const expect200 = (res: Res, what: string) => check(res.status === 200, `${what}: ${res.status} ${res.text.slice(0, 300)}`);

  async function newSoakMerchant(name: string, opts: { amountEntry: boolean }): Promise<SoakMerchant> {
    const n = options.keys ?? 4;
    // Source IPs of the documentation range 2001:db8::/32, unique to the run and the merchant.
    const ips = Array.from({ length: n }, (_, i) => `2001:db8:${run.slice(0, 4)}:${run.slice(4, 8)}::${opts.amountEntry ? "b" : "a"}${i + 1}`);
    const merchant = await createMerchant(db, {
      name: `Soak ${name} ${run}`,
      allowedIps: ips,
      defaultCommissionBps: 150,
      amountEntryEnabled: opts.amountEntry,
      // Sessions live an hour: those of a day's start are not due at its 45-minute step, and due at its end.
      minutes: { checkoutSession: 60 },
    });
    const owner = await createConsoleUser(db, {
      username: `soak-owner-${name}-${run}`,
      password: "soak-owner-password-1",
      role: "MERCHANT",
      merchantId: merchant.id,
    });
    const approver = await createConsoleUser(db, {
      username: `soak-approver-${name}-${run}`,
      password: "soak-approver-password-1",
      role: "MERCHANT",
      merchantId: merchant.id,
    });
    const keys = await Promise.all(Array.from({ length: n + 1 }, () => issueApiKey(db, { merchantId: merchant.id, ownerId: owner.id, scopes: SCOPES })));
    // USD charged in AED at the seeded USD->AED rate, as prisma/seed.ts gives the seeded merchants.
    await savePricingVersion(db, {
      merchantId: merchant.id,
      ...SEEDED_USD_DEPOSIT_TERMS,
      reason: "soak: USD gateway deposits charged in AED",
    });
    return {
      id: merchant.id,
      call: client(
        keys.slice(0, n).map((k) => k.key),
        ips,
      ),
      ownerId: owner.id,
      approver: { id: approver.id, username: approver.username },
      listenKey: present(keys[n], "keys[n]").key,
    };
  }

  // ---- setup: merchants, profiles, the velocity rule, receivers, the listener ----
  const A = await newSoakMerchant("payments", { amountEntry: false });
  const B = await newSoakMerchant("sessions", { amountEntry: true });
  const merchants = [A, B];
  const ids = merchants.map((m) => m.id);
  await savePricingVersion(db, {
    merchantId: A.id,
    currency: LIMITS.currency,
    channel: LIMITS.method,
    direction: LIMITS.direction,
    chargeCurrency: LIMITS.currency,
    settlementCurrency: LIMITS.currency,
    markupBps: 0,
    bufferBps: 0,
    commissionBps: 100,
    dailyLimitMinor: LIMITS.daily,
    monthlyLimitMinor: LIMITS.monthly,
    reason: "soak: small daily and monthly limits",
  });
  const operator = { id: randomUUID(), username: `soak-operator-${run}`, role: "OPERATOR" as const, merchantId: null };
  const rule = await transaction((tx) =>
    addRiskRule(
      tx,
      operator,
      { merchantId: A.id, kind: "COUNT", subject: "EMAIL", windowMinutes: 60, maxCount: "1", reason: "soak: velocity probe" },
      new Date(),
    ),
  );
  const failsNowAndThen = (id: string, every: number) => Number.parseInt(id.replace(/-/g, "").slice(-6), 16) % every === 0;
  const callbacks = await startRobustReceiver({ failFirst: 1, failWhen: (e) => failsNowAndThen(e.id, 4) });
  callbacks.state.secret = (await setCallbackUrl(db, { merchantId: A.id, url: callbacks.url })).secret;
  const forwarded = await startRobustReceiver({ failFirst: 1, failWhen: (e) => failsNowAndThen(e.id, 5) });
  const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "soak-listen-")), "state.json");
  let listener: Running | undefined = listen([
    "--forward-to",
    forwarded.url,
    "--api-url",
    options.baseUrl,
    "--api-key",
    A.listenKey,
    "--state-file",
    stateFile,
  ]);

  const perDay: SoakDay[] = [];
  const refusedTotal: Record<string, number> = {};
  const rollovers = { daily: 0, monthly: 0, velocity: 0 };
  let prunedTotal = 0;
  let monthEnds = 0;
  let firstDay = "";
  /** Payments and sessions left to expire: id -> expiresAt (ms). */
  const leftPayments = new Map<string, number>();
  const leftSessions = new Map<string, number>();

  // ---- the clock ----
  const clockOf = async (m: SoakMerchant) => {
    const res = await m.call("/v1/sandbox/clock");
    expect200(res, "GET /v1/sandbox/clock");
    return res.body as { offsetMs: number; now: string; due: { payments: number; checkoutSessions: number; deliveries: number } };
  };
  /** Moves `m`'s clock by `byMs` (whole seconds), ages its request log rows by as much, and waits until nothing is due. */
  async function move(m: SoakMerchant, byMs: number, step: string) {
    const by = `${Math.round(byMs / 1000)}s`;
    const res = await m.call("/v1/sandbox/clock/advance", { body: { by }, idem: `soak-${run}-${m.id}-${dayNo}-${step}` });
    expect200(res, `advance ${by}`);
    // The request log keeps the real time; in the simulated frame a row is older by every move made since it was
    // written, so the run ages the merchant's rows by the move (retention is then checked at the real now).
    await db.$executeRaw`UPDATE request_logs SET created_at = created_at - ${Math.round(byMs / 1000) * 1000} * interval '1 millisecond' WHERE merchant_id = ${m.id}::uuid`;
  }
  async function settled(m: SoakMerchant, step: string) {
    return until(
      `${step}: due payments, sessions and deliveries done`,
      async () => {
        const c = await clockOf(m);
        return c.due.payments === 0 && c.due.checkoutSessions === 0 && c.due.deliveries === 0 ? c : null;
      },
      CATCH_UP_MS,
    );
  }
  /** Moves both merchants' clocks (each by what takes it to `target`, or by `byMs`) and waits for their jobs. */
  async function moveBoth(step: string, to: { target?: number; byMs?: number }) {
    if (!moveAllowed(dayNo, step)) return;
    // Everything queued for the request log is written first (a read through the service writes its queue).
    await A.call("/v1/requests?limit=1");
    for (const m of merchants) {
      const now = Date.parse((await clockOf(m)).now);
      const byMs = to.byMs ?? to.target! - now;
      if (byMs > 0) await move(m, byMs, step);
    }
  }

  try {
    forwarded.state.secret = await listener.secret;
    await waitForLine(listener, /Ready: following/);

    // First move: to just after Dubai midnight starting the 3rd-to-last day of this month (or of the next month when
    // this month's is today or past), so the run crosses a month's end on its 3rd day.
    const nowA = Date.parse((await clockOf(A)).now);
    const today = dubaiDay(new Date(nowA));
    const lastOfMonth = (y: number, m0: number) => new Date(Date.UTC(y, m0 + 1, 0)).getUTCDate();
    let [y, m0] = [Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1];
    const startDay = (yy: number, mm: number) => `${yy}-${String(mm + 1).padStart(2, "0")}-${String(lastOfMonth(yy, mm) - 2).padStart(2, "0")}`;
    if (startDay(y, m0) <= today) [y, m0] = m0 === 11 ? [y + 1, 0] : [y, m0 + 1];
    const midnightPlus = (day: string) => dubaiDayStart(day).getTime() + 60_000;
    await moveBoth("start", { target: midnightPlus(startDay(y, m0)) });

    // The limit model (CHF probe profile) and the velocity model.
    let usedDay = { day: "", minor: 0n };
    let usedMonth = { month: "", minor: 0n };
    let lastDailyRefusalDay = "";
    let lastMonthlyRefusalMonth = "";
    let velocityRefusedHour = -1;
    let previousMonth = "";

    for (dayNo = 0; dayNo < options.days; dayNo++) {
      const dayStarted = Date.now();
      const clockA = await settled(A, "day start");
      await settled(B, "day start");
      const simNow = Date.parse(clockA.now);
      dayName = dubaiDay(new Date(simNow));
      if (dayNo === 0) firstDay = dayName;
      const month = dayName.slice(0, 7);
      if (previousMonth && month !== previousMonth) monthEnds++;
      previousMonth = month;
      check(simNow - dubaiDayStart(dayName).getTime() < 10 * 60_000, `the day starts just after Dubai midnight (sandbox time ${clockA.now})`);
      const refused: Record<string, number> = {};
      let created = 0;
      const create = async (body: Record<string, unknown>, what: string) => {
        const res = await A.call("/v1/payments", { body: { reference: `soak-${randomUUID()}`, ...body } });
        expect201(res, `${what} (${body.amount} ${body.currency} ${body.method} ${body.direction})`);
        created++;
        return res.body as { id: string; status: string; expiresAt: string; currency: string; direction: string; pricing: any };
      };
      const complete = async (id: string, outcome: "SUCCEEDED" | "FAILED") => {
        const res = await A.call(`/v1/sandbox/payments/${id}/complete`, { body: { outcome } });
        expect200(res, `complete ${outcome}`);
        check(res.body.status === outcome, `completed payment is ${res.body.status}, not ${outcome}`);
      };
      const approve = async (id: string) => {
        const approved = await transaction((tx) =>
          approveFromConsole(tx, { id: A.approver.id, username: A.approver.username, role: "MERCHANT", merchantId: A.id }, { paymentId: id, now: systemNow() }),
        );
        check(approved.status === "PENDING", `an approved withdrawal is ${approved.status}`);
      };

      // ---- 1. the limit probe: CHF bank-transfer deposits of 200.00 against 300.00 a day and 500.00 a month ----
      if (usedDay.day !== dayName) usedDay = { day: dayName, minor: 0n };
      if (usedMonth.month !== month) usedMonth = { month, minor: 0n };
      for (let attempt = 0; attempt < 2; attempt++) {
        const expected =
          usedDay.minor + LIMITS.amount > LIMITS.daily ? "DAILY_LIMIT" : usedMonth.minor + LIMITS.amount > LIMITS.monthly ? "MONTHLY_LIMIT" : "ACCEPTED";
        const res = await A.call("/v1/payments", {
          body: {
            reference: `soak-limit-${randomUUID()}`,
            amount: minorText(LIMITS.amount),
            currency: LIMITS.currency,
            method: LIMITS.method,
            direction: LIMITS.direction,
          },
        });
        const got = res.status === 201 ? "ACCEPTED" : res.status === 409 ? res.body?.error?.code : `${res.status} ${res.text.slice(0, 200)}`;
        check(got === expected, `limit probe ${attempt + 1}: expected ${expected}, got ${got} (day used ${usedDay.minor}, month used ${usedMonth.minor})`);
        if (got === "ACCEPTED") {
          created++;
          usedDay.minor += LIMITS.amount;
          usedMonth.minor += LIMITS.amount;
          if (lastDailyRefusalDay && lastDailyRefusalDay < dayName && attempt === 0) rollovers.daily++;
          if (lastMonthlyRefusalMonth && lastMonthlyRefusalMonth < month) {
            rollovers.monthly++;
            lastMonthlyRefusalMonth = "";
          }
          lastDailyRefusalDay = "";
          await complete(res.body.id, "SUCCEEDED");
        } else {
          bump(refused, got);
          if (got === "DAILY_LIMIT") lastDailyRefusalDay = dayName;
          if (got === "MONTHLY_LIMIT") lastMonthlyRefusalMonth = month;
          break;
        }
      }

      // ---- 2. the velocity probe: one payment per e-mail per clock hour ----
      const velocity = async (expectAccepted: boolean, what: string) => {
        const res = await A.call("/v1/payments", {
          body: {
            reference: `soak-velocity-${randomUUID()}`,
            amount: "10.00",
            currency: "AED",
            method: "GATEWAY",
            direction: "DEPOSIT",
            customer: { email: VELOCITY_EMAIL },
          },
        });
        if (expectAccepted) {
          expect201(res, `velocity probe (${what}) in a new window`);
          created++;
          if (velocityRefusedHour >= 0) rollovers.velocity++;
          velocityRefusedHour = -1;
          await complete(res.body.id, "SUCCEEDED");
        } else {
          check(
            res.status === 403 && res.body?.error?.code === "RISK_REJECTED",
            `velocity probe (${what}) within its window: ${res.status} ${res.text.slice(0, 200)}`,
          );
          bump(refused, "RISK_REJECTED");
          velocityRefusedHour = Math.floor(Date.parse((await clockOf(A)).now) / H);
        }
      };
      await velocity(true, "first of the hour");
      await velocity(false, "second of the hour");

      // ---- 3. payments of every currency, method and direction; concluded, approved or left to expire ----
      type Job = { body: Record<string, unknown>; then: "SUCCEEDED" | "FAILED" | "approve" | "leave" | "approve-leave" };
      const jobs: Job[] = CURRENCIES.map((currency, j) => {
        let combo = present(COMBOS[(dayNo + j) % COMBOS.length], "a combination");
        if (currency === LIMITS.currency && combo.method === LIMITS.method && combo.direction === LIMITS.direction)
          combo = present(COMBOS[(dayNo + j + 1) % COMBOS.length], "a combination");
        return {
          body: { amount: amountText(rand), currency, ...combo },
          then: combo.direction === "WITHDRAWAL" ? "approve" : j % 2 === 0 ? "SUCCEEDED" : "FAILED",
        };
      });
      // Left to expire: a gateway deposit (30 min: due at the 45-minute step), a bank-transfer deposit (60 min: not
      // due then), a withdrawal never approved and one approved but not concluded (1440 min from creation).
      jobs.push({ body: { amount: "21.00", currency: "EUR", ...COMBOS[0] }, then: "leave" });
      jobs.push({ body: { amount: "22.00", currency: "GBP", ...COMBOS[1] }, then: "leave" });
      jobs.push({ body: { amount: "23.00", currency: "SAR", ...COMBOS[2] }, then: "leave" });
      jobs.push({ body: { amount: "24.00", currency: "TRY", ...COMBOS[2] }, then: "approve-leave" });
      for (let i = 0; i < options.perDay; i++) {
        let combo = COMBOS[Math.floor(rand() * COMBOS.length)];
        assertPresent(combo, "combo");
        let currency: string = present(CURRENCIES[Math.floor(rand() * CURRENCIES.length)], "a currency");
        if (currency === LIMITS.currency && combo === COMBOS[1]) [currency, combo] = ["TRY", COMBOS[1]];
        const r = rand();
        const then: Job["then"] = combo.direction === "WITHDRAWAL" ? (r < 0.8 ? "approve" : "leave") : r < 0.55 ? "SUCCEEDED" : r < 0.85 ? "FAILED" : "leave";
        jobs.push({ body: { amount: amountText(rand), currency, ...combo }, then });
      }
      const currenciesCreated = new Set<string>();
      await pool(jobs, concurrency, async (job) => {
        const p = await create(job.body, `create (${job.then})`);
        currenciesCreated.add(p.currency);
        if (p.currency === "USD" && job.body.method === "GATEWAY") {
          check(
            p.pricing?.chargeCurrency === "AED" && p.pricing?.baseRate === "3.6725",
            `a USD gateway deposit is charged in AED at 3.6725: ${JSON.stringify(p.pricing)}`,
          );
        }
        if (job.then === "leave") leftPayments.set(p.id, Date.parse(p.expiresAt));
        else if (job.then === "approve-leave") {
          await approve(p.id);
          leftPayments.set(p.id, Date.parse(p.expiresAt));
        } else if (job.then === "approve") {
          await approve(p.id);
          await complete(p.id, rand() < 0.8 ? "SUCCEEDED" : "FAILED");
        } else await complete(p.id, job.then);
      });
      check(currenciesCreated.size === CURRENCIES.length, `creates in every currency: ${[...currenciesCreated].join(", ")}`);

      // ---- 4. amount-entry checkout sessions (merchant B): quoted and confirmed in USD and AED; one abandoned ----
      const sessionCustomer = () => ({
        id: `soak-${randomUUID().slice(0, 8)}`,
        firstName: "Ada",
        lastName: "Lovelace",
        email: `soak-${randomUUID().slice(0, 8)}@example.com`,
        phone: "+971501234567",
      });
      await pool(["USD", "AED", null], concurrency, async (currency) => {
        const res = await B.call("/v1/checkout-sessions", { body: { reference: `soak-cs-${randomUUID()}`, customer: sessionCustomer() } });
        expect201(res, "checkout session");
        leftSessions.set(res.body.id, Date.parse(res.body.customerCheckout.expiresAt));
        if (!currency) return;
        const amount = amountText(rand);
        const quote = await B.call(`/v1/sandbox/checkout-sessions/${res.body.id}/quote`, { body: { amount, currency } });
        expect200(quote, `quote ${amount} ${currency}`);
        check(quote.body.state === "QUOTED" && quote.body.quote?.chargeCurrency === "AED", `a quote in AED: ${quote.text.slice(0, 200)}`);
        check(quote.body.quote.rateDay === dayName, `the quote's rate day ${quote.body.quote.rateDay} is the sandbox day ${dayName}`);
        const confirm = await B.call(`/v1/sandbox/checkout-sessions/${res.body.id}/confirm`, { body: { amount, currency } });
        expect200(confirm, "confirm");
        check(confirm.body.state === "AWAITING_VERIFICATION", `a confirmed session is ${confirm.body.state}`);
      });

      // ---- 5. store checkouts (merchant A): READY, then Pay or Decline; one left READY to expire ----
      const storeCustomer = () => ({
        username: `soak-${randomUUID().slice(0, 8)}`,
        firstName: "Layla",
        lastName: "Haddad",
        email: `soak-${randomUUID().slice(0, 8)}@example.com`,
      });
      const storeJobs = [
        { amount: "12.34", currency: "AED", outcome: "SUCCEEDED" as const },
        { amount: "50.00", currency: "USD", outcome: "FAILED" as const },
        { amount: "100.00", currency: "AED", outcome: null },
      ];
      await pool(storeJobs, concurrency, async (job) => {
        const res = await A.call("/v1/store-payments", {
          body: { reference: `soak-order-${randomUUID()}`, amount: job.amount, currency: job.currency, customer: storeCustomer() },
        });
        expect201(res, `store payment ${job.amount} ${job.currency}`);
        created++;
        const id = res.body.id as string;
        const ready = await until(
          `day ${dayNo}: store checkout ${id} READY`,
          async () => {
            const read = await A.call(`/v1/payments/${id}`);
            const state = read.body?.checkout?.state;
            check(state === "QUEUED" || state === "READY", `store checkout ${id} is ${state}, not QUEUED or READY: ${read.status} ${read.text.slice(0, 200)}`);
            return state === "READY" ? read.body : null;
          },
          30_000,
          250,
        );
        if (!job.outcome) {
          leftPayments.set(id, Date.parse(ready.expiresAt));
          return;
        }
        const done = await A.call(`/v1/sandbox/store-payments/${id}/confirm`, { body: { outcome: job.outcome } });
        expect200(done, `store confirm ${job.outcome}`);
        check(done.body.status === job.outcome, `a confirmed store payment is ${done.body.status}`);
      });

      // ---- 6. 45 minutes on: the gateway deposits' 30 minutes pass, the bank transfers' 60 and the sessions' 60 do not ----
      await moveBoth("45m", { byMs: 45 * 60_000 });
      await checkExpiry("45m");
      await velocity(false, "45 minutes later, the same clock hour");

      // ---- 7. the day's invariants ----
      await checkInvariants();
      const prunedLogs = await checkRetention();
      prunedTotal += prunedLogs;

      // ---- 8. on to the next Dubai midnight ----
      const next = midnightPlus(dubaiDay(new Date(Date.parse((await clockOf(A)).now) + DAY)));
      await moveBoth("midnight", { target: next });
      await checkExpiry("midnight");
      const expiredToday = Number(
        present(
          (
            await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM payments WHERE merchant_id = ${A.id}::uuid AND status = 'EXPIRED'
            AND finalized_at >= ${new Date(simNow)} AND finalized_at < ${new Date(next)}`
          )[0],
          "( await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS ...",
        ).n,
      );
      for (const [k, v] of Object.entries(refused)) bump(refusedTotal, k, v);
      const day: SoakDay = { day: dayNo, dubaiDay: dayName, created, refused, expired: expiredToday, prunedLogs, ms: Date.now() - dayStarted };
      perDay.push(day);
      log(
        `day ${dayNo + 1}/${options.days} ${dayName}: ${created} created, ${sumValues(refused)} refused, ${expiredToday} expired, ${prunedLogs} log rows pruned, ${day.ms} ms`,
      );
    }
    dayNo = options.days;
    dayName = "end";
    const ending = Date.now();
    const lastDay = perDay.at(-1)?.dubaiDay ?? firstDay;

    // ---- the end: every event delivered to the receiver and forwarded by the listener ----
    await settled(A, "end");
    // A retry still waiting (30 s at least) is brought forward by a last small move. The move can make payments due
    // too, whose payment.expired events then come: the events are read once those are done.
    if (await db.delivery.count({ where: { merchantId: A.id, state: "PENDING" } })) {
      await move(A, 3_600_000, "drain");
      await settled(A, "drain");
    }
    const events = (await db.event.findMany({ where: { merchantId: A.id }, select: { id: true } })).map((e: { id: string }) => e.id);
    await until(
      "every delivery SUCCEEDED and every event at both receivers",
      async () =>
        (await db.delivery.count({ where: { merchantId: A.id, state: { not: "SUCCEEDED" } } })) === 0 &&
        events.every((id: string) => callbacks.state.events.has(id) && forwarded.state.events.has(id)),
      CATCH_UP_MS,
      500,
    );
    check(callbacks.state.refused.size === 0 && forwarded.state.refused.size === 0, "no callback refused by a receiver (signature, timestamp)");
    for (const [id, n] of callbacks.state.processed) check(n === 1, `payment ${id} processed ${n} times by the callback receiver`);
    log(`end: deliveries and forwards done in ${Date.now() - ending} ms`);
    const deliveries = await db.delivery.findMany({ where: { merchantId: A.id }, select: { attemptCount: true } });
    await checkInvariants();

    // Time goes on meanwhile: a payment that came due since is expired and its event forwarded too. Everything the
    // listener forwarded must be the merchant's; every event read above must have been forwarded.
    const eventsNow = new Set((await db.event.findMany({ where: { merchantId: A.id }, select: { id: true } })).map((e: { id: string }) => e.id));
    const byStatus = Object.fromEntries(
      (await db.payment.groupBy({ by: ["status"], where: { merchantId: { in: ids } }, _count: true })).map((g: any) => [g.status, g._count]),
    );
    const checkoutSessions = Object.fromEntries(
      (await db.checkoutSession.groupBy({ by: ["state"], where: { merchantId: B.id }, _count: true })).map((g: any) => [g.state, g._count]),
    );
    const storeCheckouts = Object.fromEntries(
      (await db.storeCheckout.groupBy({ by: ["state"], where: { payment: { merchantId: A.id } }, _count: true })).map((g: any) => [g.state, g._count]),
    );
    const ms = perDay.map((d) => d.ms).sort((a, b) => a - b);
    return {
      days: options.days,
      firstDay,
      lastDay,
      monthEnds,
      payments: { created: sumValues(byStatus), byStatus },
      refused: refusedTotal,
      rollovers,
      checkoutSessions,
      storeCheckouts,
      callbacks: {
        events: events.length,
        deliveries: deliveries.length,
        attempts: deliveries.reduce((a: number, d: { attemptCount: number }) => a + d.attemptCount, 0),
        retried: deliveries.filter((d: { attemptCount: number }) => d.attemptCount > 1).length,
        receiverFailures: sumValues(Object.fromEntries(callbacks.state.failed)),
      },
      listener: {
        forwarded: events.filter((id: string) => forwarded.state.events.has(id)).length,
        foreign: [...forwarded.state.events.keys()].filter((id) => !eventsNow.has(id)).length,
        receiverFailures: sumValues(Object.fromEntries(forwarded.state.failed)),
      },
      requestLog: { rows: await db.requestLog.count({ where: { merchantId: { in: ids } } }), pruned: prunedTotal },
      requests,
      realMs: { total: Date.now() - started, dayMedian: ms[Math.floor(ms.length / 2)] ?? 0, dayMax: ms.at(-1) ?? 0 },
      perDay,
    };
  } finally {
    if (listener) {
      listener.child.kill("SIGTERM");
      await listener.exited;
      listener = undefined;
    }
    await callbacks.close();
    await forwarded.close();
  }

  /** After a move: what is due has expired (payments, store checkouts, sessions), what is not due has not. */
  async function checkExpiry(step: string) {
    const now = new Map<string, number>();
    for (const m of merchants) now.set(m.id, Date.parse((await settled(m, step)).now));
    const atA = now.get(A.id)!;
    const atB = now.get(B.id)!;
    // Every merchant-wide: nothing pending past its time, nothing expired before its time.
    for (const m of merchants) {
      const at = new Date(now.get(m.id)!);
      const [row] = await db.$queryRaw<{ overdue: bigint; early: bigint; sessions: bigint }[]>`
        SELECT (SELECT count(*) FROM payments WHERE merchant_id = ${m.id}::uuid AND status IN ('PENDING', 'PENDING_APPROVAL') AND expires_at <= ${at}) AS overdue,
               (SELECT count(*) FROM payments WHERE merchant_id = ${m.id}::uuid AND status = 'EXPIRED' AND finalized_at < expires_at) AS early,
               (SELECT count(*) FROM checkout_sessions WHERE merchant_id = ${m.id}::uuid AND state <> 'EXPIRED' AND expires_at <= ${at}) AS sessions`;
      assertPresent(row, "row");
      check(row.overdue === 0n, `${step}: ${row.overdue} payments past their expiresAt still pending`);
      check(row.early === 0n, `${step}: ${row.early} payments expired before their expiresAt`);
      check(row.sessions === 0n, `${step}: ${row.sessions} checkout sessions past their expiry not expired`);
    }
    // The ones this run left: due -> EXPIRED (with a store checkout EXPIRED too), not due -> still pending. A sandbox
    // clock runs on in real time after a move, so one that falls due while these rows are read (between the clock read
    // above and the one after them) may be either.
    const payments = await db.payment.findMany({
      where: { id: { in: [...leftPayments.keys()] } },
      select: { id: true, status: true, expiresAt: true, storeCheckout: { select: { state: true } } },
    });
    const sessions = await db.checkoutSession.findMany({ where: { id: { in: [...leftSessions.keys()] } }, select: { id: true, state: true, expiresAt: true } });
    const afterA = Date.parse((await clockOf(A)).now);
    const afterB = Date.parse((await clockOf(B)).now);
    let notDue = 0;
    for (const p of payments) {
      const dueAt = p.expiresAt!.getTime();
      if (dueAt <= atA || (dueAt <= afterA && p.status === "EXPIRED")) {
        check(p.status === "EXPIRED", `${step}: payment ${p.id} due at ${p.expiresAt!.toISOString()} is ${p.status}`);
        if (p.storeCheckout) check(p.storeCheckout.state === "EXPIRED", `${step}: store checkout of expired payment ${p.id} is ${p.storeCheckout.state}`);
        leftPayments.delete(p.id);
      } else {
        notDue++;
        check(p.status === "PENDING" || p.status === "PENDING_APPROVAL", `${step}: payment ${p.id} not due until ${p.expiresAt!.toISOString()} is ${p.status}`);
      }
    }
    for (const s of sessions) {
      const dueAt = s.expiresAt.getTime();
      if (dueAt <= atB || (dueAt <= afterB && s.state === "EXPIRED")) {
        check(s.state === "EXPIRED", `${step}: checkout session ${s.id} due at ${s.expiresAt.toISOString()} is ${s.state}`);
        leftSessions.delete(s.id);
      } else check(s.state !== "EXPIRED", `${step}: checkout session ${s.id} not due until ${s.expiresAt.toISOString()} is EXPIRED`);
    }
    if (step === "45m")
      check(notDue > 0 && leftSessions.size > 0, `${step}: something left that is not due yet (payments ${notDue}, sessions ${leftSessions.size})`);
  }

  /** Nothing stuck; the ledger balances; counters equal recounts. */
  async function checkInvariants() {
    const real = new Date();
    const simA = new Date(Date.parse((await clockOf(A)).now));
    // Nothing stuck: deliveries wait on the real clock; store handoffs on the merchant's sandbox time.
    const [stuck] = await db.$queryRaw<{ deliveries: bigint; handoffs: bigint }[]>`
      SELECT (SELECT count(*) FROM deliveries WHERE merchant_id = ANY(${ids}::uuid[]) AND state = 'PENDING' AND next_attempt_at < ${new Date(real.getTime() - 15_000)}) AS deliveries,
             (SELECT count(*) FROM store_checkouts c JOIN payments p ON p.id = c.payment_id WHERE p.merchant_id = ${A.id}::uuid AND c.state = 'QUEUED'
                AND coalesce(c.next_handoff_at, c.created_at) < ${new Date(simA.getTime() - 15_000)}) AS handoffs`;
    assertPresent(stuck, "stuck");
    check(stuck.deliveries === 0n, `${stuck.deliveries} deliveries overdue by more than 15 s`);
    check(stuck.handoffs === 0n, `${stuck.handoffs} store checkouts QUEUED past their handoff time`);

    // The ledger: each currency balances; one entry per succeeded payment, none for any other.
    const unbalanced = await db.$queryRaw<{ currency: string; total: bigint }[]>`
      SELECT l.currency, sum(l.amount_minor) AS total FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id JOIN payments p ON p.id = e.payment_id
      WHERE p.merchant_id = ANY(${ids}::uuid[]) GROUP BY l.currency HAVING sum(l.amount_minor) <> 0`;
    check(unbalanced.length === 0, `ledger unbalanced: ${JSON.stringify(unbalanced, (_k, v) => (typeof v === "bigint" ? String(v) : v))}`);
    const [entries] = await db.$queryRaw<{ wrong: bigint }[]>`
      SELECT count(*) AS wrong FROM payments p WHERE p.merchant_id = ANY(${ids}::uuid[])
        AND (SELECT count(*) FROM ledger_entries e WHERE e.payment_id = p.id) <> CASE WHEN p.status = 'SUCCEEDED' THEN 1 ELSE 0 END`;
    assertPresent(entries, "entries");
    check(entries.wrong === 0n, `${entries.wrong} payments whose ledger entries do not match their status`);
    // Times in order: nothing approved or concluded before it was created.
    const [order] = await db.$queryRaw<{ approved: bigint; finalized: bigint }[]>`
      SELECT count(*) FILTER (WHERE approved_at < created_at) AS approved, count(*) FILTER (WHERE finalized_at < created_at) AS finalized
      FROM payments WHERE merchant_id = ANY(${ids}::uuid[])`;
    assertPresent(order, "order");
    check(order.approved === 0n, `${order.approved} withdrawals approved before they were created`);
    check(order.finalized === 0n, `${order.finalized} payments concluded before they were created`);

    // Limit counters (their slots' sums) = the amounts of the pending and succeeded payments of their profile, day and month.
    const limits = await db.$queryRaw<Record<string, unknown>[]>`
      WITH used AS (
        SELECT p.limit_profile_id AS profile_id, v.period, sum(p.amount_minor) AS used FROM payments p,
          LATERAL (VALUES ('D:' || p.business_day), ('M:' || left(p.business_day, 7))) AS v(period)
        WHERE p.merchant_id = ANY(${ids}::uuid[]) AND p.limit_profile_id IS NOT NULL AND p.status IN ('PENDING', 'PENDING_APPROVAL', 'SUCCEEDED')
        GROUP BY 1, 2),
      counters AS (
        -- a counter is the sum of its slots, clamped at 0 (lib/domain/pricing/limits.ts limitUsedSql)
        SELECT c.profile_id, c.period, GREATEST(sum(c.used_minor), 0) AS used_minor FROM limit_counters c JOIN pricing_profiles pp ON pp.id = c.profile_id
        WHERE pp.merchant_id = ANY(${ids}::uuid[]) GROUP BY 1, 2)
      SELECT profile_id::text, period, used::text, used_minor::text FROM used FULL JOIN counters USING (profile_id, period)
      WHERE coalesce(used, 0) <> coalesce(used_minor, 0)`;
    check(limits.length === 0, `limit counters differ from a recount: ${JSON.stringify(limits.slice(0, 5))}`);

    // payment_counts (+ pending deltas) = count(*) and sum(amount) of the payments, per Dubai day and all-time.
    const counts = await db.$queryRaw<Record<string, unknown>[]>`
      WITH counted AS (
        SELECT merchant_id, day, status, method, direction, currency, sum(n) AS n, sum(a) AS a, sum(aed) AS aed FROM (
          SELECT merchant_id, day, status, method, direction, currency, n, amount_minor AS a, charged_aed_minor AS aed
          FROM payment_counts WHERE merchant_id = ANY(${ids}::uuid[])
          UNION ALL
          -- a pending change counts for its day and for the all-time row (as compactPaymentCounts folds it)
          SELECT merchant_id, d.day, status, method, direction, currency, delta, amount_minor, charged_aed_minor
          FROM payment_count_deltas, LATERAL (VALUES (payment_count_deltas.day), ('*')) AS d(day) WHERE merchant_id = ANY(${ids}::uuid[])) x
        GROUP BY 1, 2, 3, 4, 5, 6),
      actual AS (
        SELECT merchant_id, d.day, status, method, direction, currency, count(*)::numeric AS n, sum(amount_minor)::numeric AS a,
          sum(charged_aed_minor(currency, amount_minor, pricing))::numeric AS aed
        FROM payments, LATERAL (VALUES (dubai_day(created_at)), ('*')) AS d(day)
        WHERE merchant_id = ANY(${ids}::uuid[]) GROUP BY 1, 2, 3, 4, 5, 6)
      SELECT day, status::text, method::text, direction::text, currency, counted.n::text AS counted, actual.n::text AS actual,
        counted.a::text AS counted_amount, actual.a::text AS actual_amount, counted.aed::text AS counted_aed, actual.aed::text AS actual_aed
      FROM counted FULL JOIN actual USING (merchant_id, day, status, method, direction, currency)
      WHERE coalesce(counted.n, 0) <> coalesce(actual.n, 0) OR coalesce(counted.a, 0) <> coalesce(actual.a, 0) OR coalesce(counted.aed, 0) <> coalesce(actual.aed, 0)`;
    check(counts.length === 0, `payment counts differ from count(*): ${JSON.stringify(counts.slice(0, 5))}`);

    // The velocity rule's counters = the merchant's payments with that e-mail in each clock hour.
    const expected = new Map<string, number>();
    const withEmail = await db.$queryRaw<{ email: string; created_at: Date }[]>`
      SELECT customer ->> 'email' AS email, created_at FROM payments WHERE merchant_id = ${A.id}::uuid AND coalesce(customer ->> 'email', '') <> ''`;
    for (const p of withEmail) {
      const key = `${emailHash(p.email)} ${Math.floor(p.created_at.getTime() / H) * H}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const counters = await db.riskCounter.findMany({ where: { ruleId: rule.id }, select: { subjectHash: true, windowStart: true, n: true } });
    check(counters.length === expected.size, `velocity counters: ${counters.length} rows, ${expected.size} (e-mail, hour) pairs in the payments`);
    for (const c of counters) {
      const n = expected.get(`${c.subjectHash} ${c.windowStart.getTime()}`);
      check(n === c.n, `velocity counter of ${c.windowStart.toISOString()} holds ${c.n}, the payments ${n ?? 0}`);
      check(c.n <= 1, `velocity counter of ${c.windowStart.toISOString()} holds ${c.n}, over the rule's 1`);
    }
  }

  /**
   * The request log at the simulated time: the merchants' rows are aged by every clock move (see move()), so a
   * prune at the real now is a prune at the simulated time. Rows older than the retention are gone after it, and
   * every newer row is kept. Returns how many of the merchants' rows it pruned.
   */
  async function checkRetention(): Promise<number> {
    const now = new Date();
    const cutoff = new Date(now.getTime() - requestLogRetentionDays() * DAY);
    const newer = (await db.requestLog.findMany({ where: { merchantId: { in: ids }, createdAt: { gte: cutoff } }, select: { requestId: true } })).map(
      (r: { requestId: string }) => r.requestId,
    );
    const older = await db.requestLog.count({ where: { merchantId: { in: ids }, createdAt: { lt: cutoff } } });
    while ((await pruneRequestLog(db, now)).pruned >= 10_000);
    check((await db.requestLog.count({ where: { merchantId: { in: ids }, createdAt: { lt: cutoff } } })) === 0, "request log rows past the retention are left");
    const kept = await db.requestLog.count({ where: { requestId: { in: newer } } });
    check(kept === newer.length, `request log: ${newer.length - kept} rows within the retention were pruned`);
    check(newer.length > 0, "request log rows of the merchants exist");
    return older;
  }
}
