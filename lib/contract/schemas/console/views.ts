import { z } from "zod";
import { CurrencyText } from "@/lib/contract/schemas/api/common";
import { DeliveryState } from "@/lib/contract/schemas/api/events";
import { Payment, PaymentList, PaymentSummary } from "@/lib/contract/schemas/api/payment-resource";
import type { RealTimeText } from "@/lib/platform/time-format";

// What the console's JSON polling routes (app/api/console/...) answer, as the pages that poll them parse it
// (components/console/use-polled.ts): a page takes its data through its schema, never as a cast. Only zod here, so
// client components can import it. Each schema's output must be assignable to the type its service declares (the
// poll's call site checks that), so a member added on the server and not here fails the type check.

/** Page envelope members of every list (lib/contract/pagination.ts). */
const pageMembers = { total: z.int().min(0), page: z.int().min(1), limit: z.int().min(1), pages: z.int().min(0) };
/** Times as the console's JSON carries them (ISO 8601 text); `recordedAt` is the real time a row was written (null before it was kept). */
const Time = z.string();
/** A real time (deliveries, ledger entries, recordedAt; docs/architecture.md "Which clock a column holds"). */
const RealTime = Time.transform((v) => v as RealTimeText);

/** `GET /api/console/payments` (lib/domain/payments/payment-views.ts `listConsolePayments`). */
export const ConsolePaymentPage = PaymentList.extend({
  items: z.array(PaymentSummary.extend({ merchantName: z.string(), recordedAt: Time.nullable() })),
  open: z.boolean(),
});

/** `GET /api/console/payments/{id}` (lib/domain/payments/payment-views.ts `PaymentView`). */
export const ConsolePaymentView = z.object({
  payment: Payment.extend({
    description: z.string().nullable(),
    createdBy: z.string().nullable(),
    approvedBy: z.string().nullable(),
    recordedAt: RealTime.nullable(),
  }),
  merchantName: z.string(),
  approvalRefusal: z.string().nullable(),
  isWithdrawalAwaitingApproval: z.boolean(),
  ledger: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      createdAt: RealTime,
      lines: z.array(z.object({ account: z.string(), currency: z.string(), amount: z.string() })),
    }),
  ),
  events: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      createdAt: Time,
      delivery: z
        .object({
          id: z.string(),
          state: z.string(),
          attemptCount: z.int(),
          nextAttemptAt: RealTime.nullable(),
          lastError: z.string().nullable(),
          deliveredAt: RealTime.nullable(),
          attempts: z.array(
            z.object({ number: z.int(), startedAt: RealTime, durationMs: z.number(), statusCode: z.int().nullable(), error: z.string().nullable() }),
          ),
        })
        .nullable(),
    }),
  ),
  open: z.boolean(),
});

/** `GET /api/console/deliveries` (lib/domain/callbacks/manage-callbacks.ts `deliveryPage`). */
export const ConsoleDeliveryPage = z.object({
  ...pageMembers,
  items: z.array(
    z.object({
      id: z.string(),
      eventId: z.string(),
      eventType: z.string(),
      paymentId: z.string().nullable(),
      test: z.boolean(),
      merchantId: z.string(),
      merchantName: z.string(),
      state: DeliveryState,
      attemptCount: z.int(),
      attempts: z.int(),
      nextAttemptAt: Time.nullable(),
      waitingSince: Time.nullable(),
      lastError: z.string().nullable(),
      deliveredAt: Time.nullable(),
      createdAt: Time,
      recordedAt: Time.nullable(),
    }),
  ),
  open: z.boolean(),
});

const Day = z.string();
const DayFigures = z.object({ day: Day, payments: z.number(), succeeded: z.number(), chargedAed: z.string() });

/** `GET /api/console/reports/payments` (lib/domain/reports/payments-overview.ts `PaymentsOverview`). */
export const ConsolePaymentsOverview = z.object({
  merchantId: z.string().nullable(),
  days: z.array(Day),
  outcomes: z.array(
    z.object({
      day: Day,
      succeeded: z.number(),
      failed: z.number(),
      expired: z.number(),
      pending: z.number(),
      cancelled: z.number(),
      total: z.number(),
      successRate: z.number().nullable(),
    }),
  ),
  volume: z.array(z.object({ day: Day, chargedAed: z.string(), byCurrency: z.record(z.string(), z.string()) })),
  currencies: z.array(z.string()),
  today: DayFigures,
  lastWeek: DayFigures,
  open: z.literal(true),
});

/** `GET /api/console/reports/callbacks` (lib/domain/reports/callbacks-overview.ts `CallbacksOverview`). */
export const ConsoleCallbacksOverview = z.object({
  merchantId: z.string().nullable(),
  days: z.array(Day),
  outcomes: z.array(
    z.object({ day: Day, firstAttempt: z.number(), afterRetries: z.number(), listener: z.number(), failed: z.number(), notConfigured: z.number() }),
  ),
  latency: z.array(z.object({ day: Day, delivered: z.number(), p50Ms: z.number().nullable(), p95Ms: z.number().nullable() })),
  backlog: z.object({ pending: z.number(), byMerchant: z.array(z.object({ merchantId: z.string(), name: z.string(), pending: z.number() })) }),
  open: z.literal(true),
});

const LimitFigure = z.object({ used: z.string(), limit: z.string().nullable(), ratio: z.number().nullable() });

/** `GET /api/console/reports/limits` (lib/domain/reports/limit-usage.ts `LimitUsage`). */
export const ConsoleLimitUsage = z.object({
  day: Day,
  month: z.string(),
  profiles: z.array(
    z.object({
      profileId: z.string(),
      merchantId: z.string(),
      merchantName: z.string(),
      label: z.string(),
      currency: CurrencyText,
      channel: z.enum(["BANK_TRANSFER", "GATEWAY"]),
      direction: z.enum(["DEPOSIT", "WITHDRAWAL"]),
      daily: LimitFigure,
      monthly: LimitFigure,
    }),
  ),
  open: z.literal(true),
});
