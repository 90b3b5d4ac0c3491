// Type-level tests of the time model (docs/architecture.md "Which clock a column holds"): real time and a merchant's
// sandbox time are different types, so passing, comparing or storing one where the other is wanted does not compile.
// Checked by `tsc --noEmit` (npm run typecheck; tsconfig.json includes every .ts file) and never run: each
// `@ts-expect-error` fails the type check when the line under it compiles.
import { expectTypeOf } from "vitest";
import {
  isBefore,
  later,
  msBetween,
  realAt,
  realInstant,
  sandboxInstant,
  sandboxNow,
  systemNow,
  type RealInstant,
  type SandboxInstant,
} from "@/lib/platform/clock";
import { checkForwardToken, issueForwardToken, type ForwardSession } from "@/lib/domain/events/forward-token";
import { lastDays } from "@/lib/domain/reports/days";
import { paymentsOverview } from "@/lib/domain/reports/payments-overview";
import { expireDuePayments } from "@/lib/domain/payments/expire";
import { deliverDueCallbacks } from "@/lib/domain/callbacks/deliver";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import type { Db } from "@/lib/platform/db";
import type { PaymentView } from "@/lib/domain/payments/payment-views";
import { formatRealTime, type MerchantTimeText } from "@/lib/platform/time-format";
import { present } from "../../scripts/harness/present";

declare const db: Db;
declare const actor: ConsoleActor;
declare const session: ForwardSession;
declare const view: PaymentView;
/** How the payment page shows a time of the payment itself: the merchant's clock (components/console/payment-detail.tsx). */
declare function merchantClock(at: MerchantTimeText | null | undefined): string;
const real = systemNow();
const sandbox = sandboxNow(2 * 3_600_000, real);
const stored = new Date(); // a column read as it comes from the database: neither clock yet

/** The clock's own functions say which clock they give, and a sandbox time is made only from a real one. */
export function constructors() {
  expectTypeOf(systemNow()).toEqualTypeOf<RealInstant>();
  expectTypeOf(sandboxNow(0)).toEqualTypeOf<SandboxInstant>();
  expectTypeOf(realAt(0, sandbox)).toEqualTypeOf<RealInstant>();
  expectTypeOf(later(real, 1_000)).toEqualTypeOf<RealInstant>();
  expectTypeOf(later(sandbox, 1_000)).toEqualTypeOf<SandboxInstant>();
  // Both are Dates wherever a Date is taken (formatting, Prisma writes).
  expectTypeOf(real).toMatchTypeOf<Date>();
  expectTypeOf(sandbox).toMatchTypeOf<Date>();
  // @ts-expect-error a sandbox time is made from a real one, never from another sandbox time
  sandboxNow(1_000, sandbox);
  // @ts-expect-error nor from a column of unknown clock: say which it holds first
  sandboxNow(1_000, stored);
  // @ts-expect-error realAt takes a sandbox time back to the real clock, not a real one
  realAt(1_000, real);
  sandboxNow(1_000, realInstant(stored));
}

/** Comparing and assigning across clocks does not compile. */
export function mixing() {
  isBefore(real, later(real, 1));
  isBefore(sandbox, sandboxInstant(stored));
  // @ts-expect-error a real instant compared with a sandbox one
  isBefore(real, sandbox);
  // @ts-expect-error a sandbox instant compared with a real one
  isBefore(sandbox, real);
  // @ts-expect-error the time between instants of two clocks means nothing
  msBetween(real, sandbox);
  // @ts-expect-error a sandbox time where a real one is wanted
  const r: RealInstant = sandbox;
  // @ts-expect-error a real time where a sandbox one is wanted
  const s: SandboxInstant = real;
  // @ts-expect-error a plain Date (say which clock it holds with realInstant or sandboxInstant)
  const u: RealInstant = stored;
  return [r, s, u];
}

/** Where the two clocks meet: the listener's forward records, the charts, the expiry sweeps, the delivery schedule. */
export function meetingPoints() {
  // Forward records: the token's bounds are real time; an event's sandbox createdAt is not one.
  expectTypeOf(session.openedAt).toEqualTypeOf<RealInstant>();
  void checkForwardToken("t", { apiKeyId: "k", merchantId: "m" }, real);
  // @ts-expect-error the forward token is checked against the real clock, not a merchant's sandbox time
  void checkForwardToken("t", { apiKeyId: "k", merchantId: "m" }, sandbox);
  // @ts-expect-error a stream opens at a real time
  void issueForwardToken({ apiKeyId: "k", merchantId: "m", openedAt: sandbox });
  // @ts-expect-error an event's createdAt (the merchant's clock) is not a bound of a forward attempt
  isBefore(session.openedAt, sandboxInstant(stored));

  // Charts: real days.
  lastDays(real);
  // @ts-expect-error the charts' days are real days, not a merchant's sandbox days
  lastDays(sandbox);
  void paymentsOverview(db, actor, { now: real });
  // @ts-expect-error the overview reads at the real time
  void paymentsOverview(db, actor, { now: sandbox });

  // Expiry sweeps are given the real time and sweep each merchant at its own sandbox time.
  void expireDuePayments({ now: real });
  // @ts-expect-error a sweep is given the real time
  void expireDuePayments({ now: sandbox });

  // The delivery retry schedule runs on the real clock.
  void deliverDueCallbacks({ now: real });
  // @ts-expect-error deliveries keep the real clock
  void deliverDueCallbacks({ now: sandbox });
}

/** The payment page: its ledger entries and delivery attempts are real time, its own and its events' times the merchant's. */
export function paymentPage() {
  merchantClock(view.payment.createdAt);
  merchantClock(present(view.events[0], "view.events[0]").createdAt);
  formatRealTime(present(view.ledger[0], "view.ledger[0]").createdAt);
  formatRealTime(present(present(view.events[0], "view.events[0]").delivery?.attempts[0], "view.events[0].delivery?.attempts[0]").startedAt);
  // @ts-expect-error a ledger entry's time is real time: it cannot be labelled as the merchant's (sandbox) clock
  merchantClock(view.ledger[0].createdAt);
  // @ts-expect-error a delivery attempt keeps the real clock
  merchantClock(view.events[0].delivery?.attempts[0].startedAt);
  // @ts-expect-error an event's time is the merchant's clock, not real time
  formatRealTime(view.events[0].createdAt);
}
