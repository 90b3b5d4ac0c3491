import type { z } from "zod";
import type { ErrorCode } from "@/lib/errors";
import type { Endpoint } from "@/lib/http/endpoint";
import { CheckoutSession } from "@/lib/schemas/api/checkout-session-resource";
import { CreateCheckoutSession, CreateCheckoutSessionRequest } from "@/lib/schemas/api/checkout-sessions";
import { Payment, PaymentList } from "@/lib/schemas/api/payment-resource";
import { CompletePayment, CompleteSandboxPayment, CreatePayment, ListPaymentsQuery } from "@/lib/schemas/api/payments";
import {
  AdvanceSandboxClock,
  CallbackSecretRotation,
  CallbackSecretState,
  ListenerSecretRotation,
  ListenerSecretState,
  QuotedCheckoutSession,
  RotateSecret,
  SandboxClock,
  SandboxClockMove,
  SandboxDelivery,
  SandboxSettings,
  SessionAmount,
  UpdateSandboxSettings,
} from "@/lib/schemas/api/sandbox";
import {
  Event,
  EventList,
  EventRedelivery,
  EventStreamPage,
  EventStreamQuery,
  ForwardsRecorded,
  ListEventsQuery,
  RecordForwards,
} from "@/lib/schemas/api/events";
import { ListRequestsQuery, RequestLogEntry, RequestLogList } from "@/lib/schemas/api/requests";
import { CreateScenarioRule, DeletedScenarioRule, ScenarioRule, ScenarioRuleList, UpdateScenarioRule } from "@/lib/schemas/api/scenario-rules";
import { StorePayment } from "@/lib/schemas/api/store-payment-resource";
import { CreateStorePayment } from "@/lib/schemas/api/store-payments";

/**
 * One merchant API endpoint, declared once: what its route handler runs with (the {@link Endpoint} part: scope,
 * idempotency mode, allow-list, body and query schemas, no-store, whether it has a load, its success answer; the
 * route passes the entry to lib/http/pipeline.ts `merchantApi`, which types the handler from it), what the OpenAPI
 * document publishes about it, and what the contract tests (access matrix, hostile input, response validation)
 * iterate over.
 */
export type Operation = Endpoint & {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path template, e.g. `/v1/payments/{id}`. */
  path: string;
  /** The app route file that serves it (tests cover an operation once its route exists). */
  route: string;
  tag: "Payments" | "Store payments" | "Checkout sessions" | "Sandbox" | "Events" | "Requests";
  summary: string;
  description: string;
  /**
   * docs/api.md: `Idempotency-Key` required; replays answer the stored response with `Idempotency-Replayed: true`.
   * Derived from `idempotency` (not "none") by {@link operation}; the document publishes it as `x-idempotent`.
   */
  idempotent: boolean;
  /** Which merchants may use it (docs/api.md "Overview" 5, "Versioning" 3). */
  merchantFlow?: "amount-entry" | "legacy-store";
  /**
   * The `{id}` path parameter: what it names and the operation that creates such a record (for an event: the
   * sandbox completion that records it; the contract tests then read its id from the Events API).
   */
  pathId?: { description: string; createdBy: string };
  success: { status: 200 | 201; schema: z.ZodType; description: string };
  /** Codes the endpoint's own logic returns; the pipeline's codes are added from the flags (see operationErrors). */
  errors: readonly ErrorCode[];
  /** A valid request body (published as the example; the contract tests send it with a fresh reference). */
  example?: Record<string, unknown>;
};

/** An entry as written: an {@link Operation} without what is derived from it. */
type OperationEntry = Omit<Operation, "idempotent">;

/** An entry with `idempotent` derived from its `idempotency`, its literal types kept for the route's handler types. */
const operation = <const O extends OperationEntry>(o: O): O & { idempotent: O["idempotency"] extends "none" ? false : true } => ({
  ...o,
  idempotent: (o.idempotency !== "none") as O["idempotency"] extends "none" ? false : true,
});

const PAYMENT_RULES: ErrorCode[] = [
  "INVALID_EMAIL",
  "CUSTOMER_PROFILE_REQUIRED",
  "GLOBAL_AMOUNT_LIMIT",
  "AMOUNT_OUT_OF_RANGE",
  "RISK_REJECTED",
  "DUPLICATE_REFERENCE",
  "FX_RATE_MISSING",
  "PRICING_DISABLED",
  "DAILY_LIMIT",
  "MONTHLY_LIMIT",
  "PAYMENT_INTAKE_PAUSED",
];

/** Every /v1 endpoint of docs/api.md "Endpoints", keyed by operationId. Add one entry per new endpoint. */
export const OPERATIONS = {
  createPayment: operation({
    operationId: "createPayment",
    method: "POST",
    path: "/v1/payments",
    route: "app/v1/payments/route.ts",
    tag: "Payments",
    summary: "Create a sandbox deposit or withdrawal",
    description:
      "A deposit starts PENDING, a withdrawal PENDING_APPROVAL (approved by a console user other than the key's owner). Merchant pricing and limits apply; the terms are stored as an immutable pricing snapshot. A replay with the same Idempotency-Key and body answers the first response (201) with Idempotency-Replayed: true.",
    scope: "payments:create",
    idempotency: "statement",
    load: true,
    allowList: false,
    noStore: true,
    body: CreatePayment,
    success: { status: 201, schema: Payment, description: "The created payment (also for a replay)." },
    errors: [...PAYMENT_RULES, "NO_ROUTE", "BANK_CAPACITY"],
    example: {
      reference: "order-1001",
      amount: "1123.52",
      currency: "USD",
      method: "GATEWAY",
      direction: "DEPOSIT",
      description: "Order 1001",
      customer: { id: "cust-42", email: "buyer@example.com", country: "AE" },
    },
  }),
  listPayments: operation({
    operationId: "listPayments",
    method: "GET",
    path: "/v1/payments",
    route: "app/v1/payments/route.ts",
    tag: "Payments",
    summary: "List the merchant's payments",
    description:
      "Newest first. `from` and `to` are Dubai (UTC+4) calendar days in YYYY-MM-DD, the end day inclusive. Items carry neither `checkout` nor `customer`.",
    scope: "payments:read",
    idempotency: "none",
    load: true,
    allowList: false,
    noStore: true,
    query: ListPaymentsQuery,
    success: { status: 200, schema: PaymentList, description: "A page of payments." },
    errors: [],
  }),
  getPayment: operation({
    operationId: "getPayment",
    method: "GET",
    path: "/v1/payments/{id}",
    route: "app/v1/payments/[id]/route.ts",
    tag: "Payments",
    summary: "Read one payment",
    description:
      "Includes `checkout` (store payments) and `customer`. Store checkout: poll every 3 to 5 seconds; redirect the customer only to checkout.url when checkout.state is READY; finish only from a verified payment.succeeded callback or status SUCCEEDED here.",
    scope: "payments:read",
    idempotency: "none",
    load: true,
    allowList: false,
    noStore: true,
    pathId: { description: "payment id (uuid); another merchant's id answers 404", createdBy: "createPayment" },
    success: { status: 200, schema: Payment, description: "The payment with checkout and customer detail." },
    errors: [],
  }),
  completeSandboxPayment: operation({
    operationId: "completeSandboxPayment",
    method: "POST",
    path: "/v1/sandbox/payments/{id}/complete",
    route: "app/v1/sandbox/payments/[id]/complete/route.ts",
    tag: "Sandbox",
    summary: "Conclude a pending test payment",
    description:
      'Moves a PENDING payment (a withdrawal must be approved; not a store checkout; before expiresAt) to SUCCEEDED (ledger entry, payment.succeeded event) or FAILED (payment.failed event). With FAILED, an optional failureCode (docs/api.md "Failure codes") is shown on the payment, its lists and its payment.failed event as `failure: {code, message}`; a failureCode with SUCCEEDED, or an unknown one, answers 400 VALIDATION_ERROR and changes nothing. Repeating the outcome a payment already has returns it unchanged (409 INVALID_STATE when the repeat names another failure code). No money moves.',
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    body: CompleteSandboxPayment,
    pathId: { description: "payment id (uuid)", createdBy: "createPayment" },
    success: { status: 200, schema: Payment, description: "The concluded payment." },
    errors: ["INVALID_STATE"],
    example: { outcome: "SUCCEEDED" },
  }),
  expireSandboxPayment: operation({
    operationId: "expireSandboxPayment",
    method: "POST",
    path: "/v1/sandbox/payments/{id}/expire",
    route: "app/v1/sandbox/payments/[id]/expire/route.ts",
    tag: "Sandbox",
    summary: "Expire a pending test payment now (test helper)",
    description:
      "Test helper: moves a PENDING or PENDING_APPROVAL payment to EXPIRED now, exactly as the expiry sweep does once expiresAt has passed: the amount goes back to the limits, a payment.expired event is recorded and delivered, and a store checkout waiting for its handoff or its customer becomes EXPIRED too. expiresAt keeps the deadline the payment was given. Send no body (or `{}`). An EXPIRED payment is answered as it is (nothing is written twice); a payment that ended otherwise answers 409 INVALID_STATE. No money moves.",
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    pathId: { description: "payment id (uuid); another merchant's id answers 404", createdBy: "createPayment" },
    success: { status: 200, schema: Payment, description: "The expired payment." },
    errors: ["INVALID_STATE"],
  }),
  // Test helpers (docs/api.md "Test helpers"): each goes through the service its page or job uses.
  expireSandboxCheckoutSession: operation({
    operationId: "expireSandboxCheckoutSession",
    method: "POST",
    path: "/v1/sandbox/checkout-sessions/{id}/expire",
    route: "app/v1/sandbox/checkout-sessions/[id]/expire/route.ts",
    tag: "Sandbox",
    summary: "Test helper: expire a checkout session now",
    description:
      "Ends the session's acceptance period now (customerCheckout.expiresAt becomes now) and expires it with the expiry sweep's own transition: AWAITING_AMOUNT, QUOTED or AWAITING_VERIFICATION -> EXPIRED. A session already EXPIRED is answered as it is. No event (sessions send no callbacks). Send no body.",
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    pathId: { description: "checkout session id (uuid); another merchant's id answers 404", createdBy: "createCheckoutSession" },
    success: { status: 200, schema: CheckoutSession, description: "The expired session." },
    errors: [],
  }),
  quoteSandboxCheckoutSession: operation({
    operationId: "quoteSandboxCheckoutSession",
    method: "POST",
    path: "/v1/sandbox/checkout-sessions/{id}/quote",
    route: "app/v1/sandbox/checkout-sessions/[id]/quote/route.ts",
    tag: "Sandbox",
    summary: "Test helper: the customer chooses amount and currency",
    description:
      "What the customer does on customerCheckout.url, without a browser: the same validation, pricing (today's Dubai rate, the merchant's GATEWAY DEPOSIT profile charging AED) and transition as the page (AWAITING_AMOUNT or QUOTED -> QUOTED). Answers the session and the quote the customer sees. A currency the page does not offer is 400 VALIDATION_ERROR; an expired or confirmed session 409 INVALID_STATE.",
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    body: SessionAmount,
    pathId: { description: "checkout session id (uuid); another merchant's id answers 404", createdBy: "createCheckoutSession" },
    success: { status: 200, schema: QuotedCheckoutSession, description: "The quoted session and the quote the customer sees." },
    errors: ["INVALID_STATE", "GLOBAL_AMOUNT_LIMIT", "AMOUNT_OUT_OF_RANGE", "FX_RATE_MISSING", "PRICING_DISABLED", "PROVIDER_CURRENCY_MISMATCH", "NO_ROUTE"],
    example: { amount: "100.00", currency: "AED" },
  }),
  confirmSandboxCheckoutSession: operation({
    operationId: "confirmSandboxCheckoutSession",
    method: "POST",
    path: "/v1/sandbox/checkout-sessions/{id}/confirm",
    route: "app/v1/sandbox/checkout-sessions/[id]/confirm/route.ts",
    tag: "Sandbox",
    summary: "Test helper: the customer confirms the total",
    description:
      'What the customer does pressing "Confirm total" on the page: the body repeats the quoted amount and currency, and the session moves QUOTED -> AWAITING_VERIFICATION, the last state of the flow (verification is not configured). Repeating the confirmation answers the session unchanged. A total other than the quoted one, or a quote of an earlier Dubai day, is 409 INVALID_STATE. Creates no payment, store handoff or event.',
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    body: SessionAmount,
    pathId: { description: "checkout session id (uuid); another merchant's id answers 404", createdBy: "quoteSandboxCheckoutSession" },
    success: { status: 200, schema: QuotedCheckoutSession, description: "The confirmed session." },
    errors: ["INVALID_STATE"],
    example: { amount: "100.00", currency: "AED" },
  }),
  confirmSandboxStorePayment: operation({
    operationId: "confirmSandboxStorePayment",
    method: "POST",
    path: "/v1/sandbox/store-payments/{id}/confirm",
    route: "app/v1/sandbox/store-payments/[id]/confirm/route.ts",
    tag: "Sandbox",
    summary: "Test helper: the store's test confirmation of a store payment",
    description:
      "What the store page's Pay (SUCCEEDED) and Decline (FAILED) buttons do, without a browser: checkout READY -> the outcome, and the payment follows (SUCCEEDED: ledger entry and payment.succeeded; FAILED: payment.failed). Only while checkout.state is READY: otherwise 409 INVALID_STATE naming the state and what to wait for (QUEUED: poll GET /v1/payments/{id} until READY). Repeating the outcome the checkout already has answers it unchanged.",
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    body: CompletePayment,
    pathId: { description: "store payment id (uuid); another merchant's id answers 404", createdBy: "createStorePayment" },
    success: { status: 200, schema: StorePayment, description: "The payment with its checkout." },
    errors: ["INVALID_STATE"],
    example: { outcome: "SUCCEEDED" },
  }),
  attemptSandboxDelivery: operation({
    operationId: "attemptSandboxDelivery",
    method: "POST",
    path: "/v1/sandbox/deliveries/{id}/attempt",
    route: "app/v1/sandbox/deliveries/[id]/attempt/route.ts",
    tag: "Sandbox",
    summary: "Test helper: run a callback delivery's next attempt now",
    description:
      "A PENDING delivery (its first attempt or a retry) becomes due now and the delivery worker is told, as a requeue does; the worker sends the attempt within about a second (signed, recorded, and retried on the merchant's schedule if it fails). Read GET /v1/events/{eventId} for the outcome. A delivered (SUCCEEDED), FAILED or NOT_CONFIGURED delivery is 409 INVALID_STATE. Send no body.",
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    pathId: { description: "delivery id (uuid, from GET /v1/events/{id}); another merchant's id answers 404", createdBy: "completeSandboxPayment" },
    success: { status: 200, schema: SandboxDelivery, description: "The delivery, due now." },
    errors: ["INVALID_STATE"],
  }),
  getSandboxSettings: operation({
    operationId: "getSandboxSettings",
    method: "GET",
    path: "/v1/sandbox/settings",
    route: "app/v1/sandbox/settings/route.ts",
    tag: "Sandbox",
    summary: "Test helper: read the merchant's sandbox settings",
    description: "Fast retries and the callback retry schedule in force for the merchant.",
    scope: "sandbox:simulate",
    idempotency: "none",
    allowList: false,
    noStore: true,
    success: { status: 200, schema: SandboxSettings, description: "The settings." },
    errors: [],
  }),
  updateSandboxSettings: operation({
    operationId: "updateSandboxSettings",
    method: "PUT",
    path: "/v1/sandbox/settings",
    route: "app/v1/sandbox/settings/route.ts",
    tag: "Sandbox",
    summary: "Test helper: switch fast retries",
    description:
      '`{"fastRetries": true}` runs the callback schedule\'s 8 attempts with every wait divided by 60 (0.5 s, 2 s, 5 s, 10 s, 20 s, 40 s, 60 s); false restores the normal schedule (30 s to 1 h). Applies from the next failed attempt. Setting the value it already has changes nothing; a change is written to the audit log. PUT sets the whole value, so no Idempotency-Key is needed.',
    scope: "sandbox:simulate",
    idempotency: "none",
    allowList: false,
    noStore: true,
    body: UpdateSandboxSettings,
    success: { status: 200, schema: SandboxSettings, description: "The settings afterwards." },
    errors: [],
    example: { fastRetries: true },
  }),
  getCallbackSecret: operation({
    operationId: "getCallbackSecret",
    method: "GET",
    path: "/v1/sandbox/callback-secret",
    route: "app/v1/sandbox/callback-secret/route.ts",
    tag: "Sandbox",
    summary: "Read where the callback secret stands",
    description:
      'Whether a callback secret is set and, during a rotation, when its overlap ends. Never the secret. See docs/callbacks.md "Rotating the secret".',
    scope: "sandbox:simulate",
    idempotency: "none",
    allowList: false,
    noStore: true,
    success: { status: 200, schema: CallbackSecretState, description: "The secret's state." },
    errors: [],
  }),
  rotateCallbackSecret: operation({
    operationId: "rotateCallbackSecret",
    method: "POST",
    path: "/v1/sandbox/callback-secret/rotate",
    route: "app/v1/sandbox/callback-secret/rotate/route.ts",
    tag: "Sandbox",
    summary: "Rotate the callback secret, with an overlap",
    description:
      'Makes a new callback secret and answers it this once; the callback address stays. For `overlap` (default 24h, at most 7d; 0s for none) the secret it replaces keeps signing: X-Service-Signature is still made with the old secret, and webhook-signature carries a signature by each, so a receiver holding either secret verifies every delivery while you deploy the new one. Then the old secret stops; POST /v1/sandbox/callback-secret/end-overlap ends the overlap early. A rotation during an overlap drops the oldest secret at once (two at most). Overlaps run on the real clock, not the sandbox clock. Written to the audit log, never the secret. See docs/callbacks.md "Rotating the secret".',
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    body: RotateSecret,
    success: { status: 200, schema: CallbackSecretRotation, description: "The new secret (shown once) and the overlap's end." },
    errors: ["INVALID_STATE"],
    example: { overlap: "24h" },
  }),
  endCallbackSecretOverlap: operation({
    operationId: "endCallbackSecretOverlap",
    method: "POST",
    path: "/v1/sandbox/callback-secret/end-overlap",
    route: "app/v1/sandbox/callback-secret/end-overlap/route.ts",
    tag: "Sandbox",
    summary: "End a callback secret rotation's overlap now",
    description:
      'The previous secret stops signing from the next attempt on: X-Service-Signature is made with the new secret and webhook-signature carries its signature only. With no overlap running it changes nothing. Written to the audit log. Send no body. See docs/callbacks.md "Rotating the secret".',
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    success: { status: 200, schema: CallbackSecretState, description: "The secret's state afterwards." },
    errors: [],
  }),
  getListenerSecret: operation({
    operationId: "getListenerSecret",
    method: "GET",
    path: "/v1/sandbox/listener-secret",
    route: "app/v1/sandbox/listener-secret/route.ts",
    tag: "Sandbox",
    summary: "Read where the calling key's sandpiper listen secret stands",
    description:
      "The generation `sandpiper listen` derives the calling API key's listener secret from, and a rotation's overlap. Never the secret: the listener derives it from the key. `sandpiper listen` reads it when it starts. See docs/callbacks.md \"Rotating the secret\".",
    scope: "payments:read",
    idempotency: "none",
    allowList: false,
    noStore: true,
    success: { status: 200, schema: ListenerSecretState, description: "The listener secret's state." },
    errors: [],
  }),
  rotateListenerSecret: operation({
    operationId: "rotateListenerSecret",
    method: "POST",
    path: "/v1/sandbox/listener-secret/rotate",
    route: "app/v1/sandbox/listener-secret/rotate/route.ts",
    tag: "Sandbox",
    summary: "Rotate the calling key's sandpiper listen secret, with an overlap",
    description:
      'The calling API key\'s listener secret moves to a new generation; listeners running with the key switch within about a second and print the new secret. For `overlap` (default 24h, at most 7d; 0s for none) the previous secret keeps signing as for POST /v1/sandbox/callback-secret/rotate: X-Service-Signature with the old secret, webhook-signature with both. Written to the audit log. See docs/callbacks.md "Rotating the secret".',
    scope: "payments:read",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    body: RotateSecret,
    success: { status: 200, schema: ListenerSecretRotation, description: "The new listener secret and the overlap's end." },
    errors: [],
    example: { overlap: "24h" },
  }),
  endListenerSecretOverlap: operation({
    operationId: "endListenerSecretOverlap",
    method: "POST",
    path: "/v1/sandbox/listener-secret/end-overlap",
    route: "app/v1/sandbox/listener-secret/end-overlap/route.ts",
    tag: "Sandbox",
    summary: "End a listener secret rotation's overlap now",
    description:
      'The calling key\'s previous listener secret stops signing within about a second. With no overlap running it changes nothing. Written to the audit log. Send no body. See docs/callbacks.md "Rotating the secret".',
    scope: "payments:read",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    success: { status: 200, schema: ListenerSecretState, description: "The listener secret's state afterwards." },
    errors: [],
  }),
  getSandboxClock: operation({
    operationId: "getSandboxClock",
    method: "GET",
    path: "/v1/sandbox/clock",
    route: "app/v1/sandbox/clock/route.ts",
    tag: "Sandbox",
    summary: "Test helper: read the merchant's sandbox clock",
    description: "How far the merchant's sandbox time runs ahead of the real clock, and both times now. See POST /v1/sandbox/clock/advance.",
    scope: "sandbox:simulate",
    idempotency: "none",
    allowList: false,
    noStore: true,
    success: { status: 200, schema: SandboxClock, description: "The clock." },
    errors: [],
  }),
  advanceSandboxClock: operation({
    operationId: "advanceSandboxClock",
    method: "POST",
    path: "/v1/sandbox/clock/advance",
    route: "app/v1/sandbox/clock/advance/route.ts",
    tag: "Sandbox",
    summary: "Test helper: move the merchant's sandbox time ahead",
    description:
      "Moves the merchant's sandbox clock ahead by `by`, as if that time had gone by, for this merchant only: its PENDING and PENDING_APPROVAL payments and its checkout sessions whose expiresAt has passed at the new time expire now (the sweep's transitions, ledger entries and payment.expired events, in the same transaction as the move), callback retries waiting for their time come that much sooner, and from now on the merchant's requests work at its sandbox time: new payments' createdAt and expiresAt, velocity windows, daily and monthly limits and the Dubai business day. Callback signatures keep the real time. The clock only moves ahead, at most ten years; POST /v1/sandbox/clock/reset goes back to the real clock. Written to the audit log.",
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    body: AdvanceSandboxClock,
    success: { status: 200, schema: SandboxClockMove, description: "The clock after the move, and what it expired." },
    errors: [],
    example: { by: "2h" },
  }),
  resetSandboxClock: operation({
    operationId: "resetSandboxClock",
    method: "POST",
    path: "/v1/sandbox/clock/reset",
    route: "app/v1/sandbox/clock/reset/route.ts",
    tag: "Sandbox",
    summary: "Test helper: put the merchant's sandbox clock back to the real time",
    description:
      "The merchant's requests work at the real time again. Nothing is expired or moved back: times already given (a payment's createdAt and expiresAt) are kept. Written to the audit log. Send no body.",
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    success: { status: 200, schema: SandboxClockMove, description: "The clock, back at the real time." },
    errors: [],
  }),
  listScenarioRules: operation({
    operationId: "listScenarioRules",
    method: "GET",
    path: "/v1/sandbox/scenario-rules",
    route: "app/v1/sandbox/scenario-rules/route.ts",
    tag: "Sandbox",
    summary: "Scenario rules: list",
    description:
      'The merchant\'s scenario rules by position. When a payment is created, the first enabled rule it matches concludes it automatically (SUCCEEDED or FAILED after delayMs, as POST /v1/sandbox/payments/{id}/complete would) or leaves it to expire (EXPIRE). See docs/api.md "Scenario rules".',
    scope: "sandbox:simulate",
    idempotency: "none",
    allowList: false,
    noStore: true,
    success: { status: 200, schema: ScenarioRuleList, description: "Every rule, by position." },
    errors: [],
  }),
  createScenarioRule: operation({
    operationId: "createScenarioRule",
    method: "POST",
    path: "/v1/sandbox/scenario-rules",
    route: "app/v1/sandbox/scenario-rules/route.ts",
    tag: "Sandbox",
    summary: "Scenario rules: add one",
    description:
      "Adds a rule matching an exact amount (any currency) or a reference prefix, optionally only for a method, direction or currency. Off unless `enabled` is true. A merchant has at most 100 rules. Audited.",
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    body: CreateScenarioRule,
    success: { status: 201, schema: ScenarioRule, description: "The rule." },
    errors: [],
    example: { name: "Amount 13.13 fails", enabled: true, match: { amount: "13.13" }, outcome: "FAILED", delayMs: 0 },
  }),
  addStandardScenarioRules: operation({
    operationId: "addStandardScenarioRules",
    method: "POST",
    path: "/v1/sandbox/scenario-rules/standard",
    route: "app/v1/sandbox/scenario-rules/standard/route.ts",
    tag: "Sandbox",
    summary: "Scenario rules: add the standard set",
    description:
      'Adds, enabled, each rule of the standard set (docs/guides/test-every-path.md "Testing your integration") the merchant has no rule of that name for: amount 13.13 fails, 14.14 expires, 15.15 succeeds; reference prefix fail- fails, ok- succeeds, slow- succeeds after 30 s. Audited.',
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    success: { status: 200, schema: ScenarioRuleList, description: "Every rule afterwards, by position." },
    errors: [],
  }),
  updateScenarioRule: operation({
    operationId: "updateScenarioRule",
    method: "PATCH",
    path: "/v1/sandbox/scenario-rules/{id}",
    route: "app/v1/sandbox/scenario-rules/[id]/route.ts",
    tag: "Sandbox",
    summary: "Scenario rules: change one (enable, disable, reorder)",
    description: "Changes the members given; the others keep their values. Applies to payments created afterwards. Audited.",
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    body: UpdateScenarioRule,
    pathId: { description: "scenario rule id (uuid); another merchant's id answers 404", createdBy: "createScenarioRule" },
    success: { status: 200, schema: ScenarioRule, description: "The rule afterwards." },
    errors: [],
    example: { outcome: "SUCCEEDED", enabled: false },
  }),
  deleteScenarioRule: operation({
    operationId: "deleteScenarioRule",
    method: "DELETE",
    path: "/v1/sandbox/scenario-rules/{id}",
    route: "app/v1/sandbox/scenario-rules/[id]/route.ts",
    tag: "Sandbox",
    summary: "Scenario rules: delete one",
    description:
      "Deletes a rule: it leaves the list and matches no new payment. Payments it already matched keep their conclusion and show its name. Deleting a deleted rule answers the same and changes nothing. Audited.",
    scope: "sandbox:simulate",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    pathId: { description: "scenario rule id (uuid); another merchant's id answers 404", createdBy: "createScenarioRule" },
    success: { status: 200, schema: DeletedScenarioRule, description: "The rule is deleted." },
    errors: [],
  }),
  createStorePayment: operation({
    operationId: "createStorePayment",
    method: "POST",
    path: "/v1/store-payments",
    route: "app/v1/store-payments/route.ts",
    tag: "Store payments",
    summary: "Create a fixed-amount store checkout",
    description:
      "Risk checks, limits, route and FX snapshot apply; a signed handoff to the connected store is queued. The answer has checkout.state QUEUED and url null: poll GET /v1/payments/{id}. A replay returns the same payment id and the current checkout state. Legacy: unavailable to merchants with customer amount-entry enabled.",
    scope: "payments:create",
    idempotency: "transaction",
    allowList: true,
    noStore: true,
    merchantFlow: "legacy-store",
    body: CreateStorePayment,
    success: { status: 201, schema: StorePayment, description: "The payment with its store checkout (also for a replay, with the current checkout state)." },
    errors: [...PAYMENT_RULES, "LEGACY_FLOW_DISABLED", "PROVIDER_CURRENCY_MISMATCH", "STORE_DISABLED", "STORE_UNAVAILABLE", "NO_ROUTE"],
    example: {
      reference: "store-order-2001",
      amount: "250.00",
      currency: "AED",
      customer: { username: "buyer42", firstName: "Amal", lastName: "Haddad", email: "amal@example.com" },
    },
  }),
  createCheckoutSession: operation({
    operationId: "createCheckoutSession",
    method: "POST",
    path: "/v1/checkout-sessions",
    route: "app/v1/checkout-sessions/route.ts",
    tag: "Checkout sessions",
    summary: "Open a customer amount-entry session",
    description:
      "The customer opens customerCheckout.url, chooses amount and currency and confirms the total. Confirmation does not create a payment and is not payment success. Only for merchants with customer amount-entry enabled.",
    scope: "payments:create",
    idempotency: "transaction",
    allowList: true,
    noStore: true,
    merchantFlow: "amount-entry",
    body: CreateCheckoutSession,
    bodyValidator: CreateCheckoutSessionRequest,
    success: { status: 201, schema: CheckoutSession, description: "The session (also for a replay)." },
    errors: ["INVALID_EMAIL", "CUSTOMER_PROFILE_REQUIRED", "AMOUNT_ENTRY_NOT_ENABLED", "RISK_REJECTED", "DUPLICATE_REFERENCE"],
    example: {
      reference: "session-3001",
      customer: { id: "cust-77", firstName: "Omar", lastName: "Nasser", email: "omar@example.com", phone: "+971501234567" },
    },
  }),
  getCheckoutSession: operation({
    operationId: "getCheckoutSession",
    method: "GET",
    path: "/v1/checkout-sessions/{id}",
    route: "app/v1/checkout-sessions/[id]/route.ts",
    tag: "Checkout sessions",
    summary: "Read one checkout session",
    description: "A confirmed amount is not payment success.",
    scope: "payments:read",
    idempotency: "none",
    allowList: false,
    noStore: true,
    pathId: { description: "checkout session id (uuid); another merchant's id answers 404", createdBy: "createCheckoutSession" },
    success: { status: 200, schema: CheckoutSession, description: "The session." },
    errors: [],
  }),
  listEvents: operation({
    operationId: "listEvents",
    method: "GET",
    path: "/v1/events",
    route: "app/v1/events/route.ts",
    tag: "Events",
    summary: "List the merchant's events, or follow them with a cursor",
    description:
      "Without `after`: the merchant's events newest first, paged like the payments list, with filters `type`, `paymentId` and `from`/`to` (Dubai calendar days, the end day inclusive). With `after=<event id>`: the events that became visible after that one, oldest first, in commit order: a follower that pages with the last id it read never skips an event whose transaction committed late. Each item is the callback envelope exactly as delivered plus the state of its latest delivery.",
    scope: "payments:read",
    idempotency: "none",
    allowList: false,
    noStore: true,
    query: ListEventsQuery,
    success: { status: 200, schema: EventList, description: "A page of events." },
    errors: ["NOT_FOUND"],
  }),
  getEvent: operation({
    operationId: "getEvent",
    method: "GET",
    path: "/v1/events/{id}",
    route: "app/v1/events/[id]/route.ts",
    tag: "Events",
    summary: "Read one event with its deliveries",
    description:
      "The envelope exactly as it is delivered (`id`, `type`, `createdAt`, `data`), plus a separate `delivery` member: the state of the latest delivery to the configured callback address and every delivery with its attempts; and `forwards`: what `sandpiper listen` processes reported of forwarding the event to a receiver (each forward with its attempts and whether it was DELIVERED). Listener forwards are not deliveries and never change a delivery.",
    scope: "payments:read",
    idempotency: "none",
    allowList: false,
    noStore: true,
    pathId: { description: "event id (uuid); another merchant's id answers 404", createdBy: "completeSandboxPayment" },
    success: { status: 200, schema: Event, description: "The event and its deliveries." },
    errors: [],
  }),
  redeliverEvent: operation({
    operationId: "redeliverEvent",
    method: "POST",
    path: "/v1/events/{id}/redeliver",
    route: "app/v1/events/[id]/redeliver/route.ts",
    tag: "Events",
    summary: "Deliver an event again",
    description:
      "A fresh delivery of the same event (same event id and body, a new timestamp and signature) to the configured callback address, as a new delivery with its own attempts, and to every running `sandpiper listen` process. Earlier deliveries keep their state. Send no body (or `{}`). A replay with the same Idempotency-Key answers the first response and delivers nothing more.",
    scope: "payments:read",
    idempotency: "transaction",
    allowList: false,
    noStore: true,
    pathId: { description: "event id (uuid); another merchant's id answers 404", createdBy: "completeSandboxPayment" },
    success: { status: 201, schema: EventRedelivery, description: "The redelivery (also for a replay)." },
    errors: [],
  }),
  listRequests: operation({
    operationId: "listRequests",
    method: "GET",
    path: "/v1/requests",
    route: "app/v1/requests/route.ts",
    tag: "Requests",
    summary: "List the merchant's API requests (request log)",
    description:
      "Every `/v1` request sent with one of the merchant's keys, newest first, paged like the payments list: time, key prefix, method, path, status, error code, requestId, Idempotency-Key and whether the answer was a replay, latency, and the request and response bodies with secrets and bearer links redacted, cut at 8 KiB. Filters: `status` (a class such as `4xx`, or a status), `path` (a prefix), `method`, `errorCode`, `idempotencyKey`, `keyPrefix`, `since`. Requests are kept 14 days (the operator may change that) and show up within about a second of their answer.",
    scope: "payments:read",
    idempotency: "none",
    allowList: false,
    noStore: true,
    query: ListRequestsQuery,
    success: { status: 200, schema: RequestLogList, description: "A page of logged requests." },
    errors: [],
  }),
  getRequest: operation({
    operationId: "getRequest",
    method: "GET",
    path: "/v1/requests/{id}",
    route: "app/v1/requests/[id]/route.ts",
    tag: "Requests",
    summary: "Read one API request by its requestId",
    description:
      "One logged request of the merchant, by the requestId of its answer (the `X-Request-Id` header, and the `requestId` of an error answer). Another merchant's request, an unknown id or one older than the retention period answers 404.",
    scope: "payments:read",
    idempotency: "none",
    allowList: false,
    noStore: true,
    pathId: { description: "the requestId of an earlier request (uuid); another merchant's answers 404", createdBy: "createPayment" },
    success: { status: 200, schema: RequestLogEntry, description: "The logged request." },
    errors: [],
  }),
  recordForwards: operation({
    operationId: "recordForwards",
    method: "POST",
    path: "/v1/events/forwards",
    route: "app/v1/events/forwards/route.ts",
    tag: "Events",
    summary: "Record listener forward attempts (sandpiper listen)",
    description:
      "What `sandpiper listen` sends, in batches, about each attempt to bring an event to the developer's receiver: status, latency, error, the timestamp and signature it sent. The attempts show on `GET /v1/events/{id}` (`forwards`), on the console's event pages and in the signature debugger, and an event a listener delivered counts as received. No Idempotency-Key: an attempt already recorded (the same forwardId and attempt) changes nothing. Events that are not the key's merchant's are listed back in `unknownEvents` and not recorded. Only a listener session records: the batch carries the `forwardToken` its stream's `ready` message gave (a key with the `sandbox:simulate` scope gets one; a read-only key's listener forwards but records nothing), and the token is taken for 70 minutes after its stream opened. A token of another key, an expired one, or an attempt whose `startedAt` lies before its event's creation or its stream's opening, or after now (a minute of clock skew allowed), answers 400 and nothing of the batch is recorded.",
    scope: "sandbox:simulate",
    idempotency: "none",
    allowList: false,
    noStore: true,
    body: RecordForwards,
    success: { status: 200, schema: ForwardsRecorded, description: "What was recorded." },
    errors: [],
    example: {
      forwardToken: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJtaWQiOiI2ZjFjMmQzZS0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDMifQ.c2lnbmF0dXJl",
      forwards: [
        {
          eventId: "6f1c2d3e-0000-4000-8000-000000000001",
          forwardId: "6f1c2d3e-0000-4000-8000-000000000002",
          cursor: "1",
          kind: "event",
          attempt: 1,
          startedAt: "2026-11-25T10:00:00.000Z",
          durationMs: 4,
          statusCode: 200,
          error: null,
          forwardTo: "http://localhost:4000/hook",
          timestamp: "1764064800",
          signature: "0".repeat(64),
          responseSnippet: '{"received":true}',
          nextAttemptAt: null,
        },
      ],
    },
  }),
  streamEvents: operation({
    operationId: "streamEvents",
    method: "GET",
    path: "/v1/events/stream",
    route: "app/v1/events/stream/route.ts",
    tag: "Events",
    summary: "Follow events and redeliveries (listeners)",
    description:
      "What `sandpiper listen` follows: the merchant's new events and redeliveries after `cursor`, in commit order. With `Accept: text/event-stream` the answer is a stream of server-sent events (`ready`, with the stream's `forwardToken` for `POST /v1/events/forwards` when the key has the `sandbox:simulate` scope, one `item` per feed item, a `heartbeat` every 5 seconds, `bye` when the service closes it; reconnect with the last cursor). Otherwise one JSON page, waiting up to `wait` seconds for a first item.",
    scope: "payments:read",
    idempotency: "none",
    allowList: false,
    noStore: true,
    query: EventStreamQuery,
    eventStream:
      "Server-sent events. `event: ready` data `{cursor, heartbeatSeconds, headers, chaos}`; `event: item` (id = cursor) data: one item as in the JSON answer's `items`; `event: chaos` data `{enabled}` within about a second of the merchant's chaos mode being switched; `event: heartbeat` data `{cursor, time}` every 5 s; `event: bye` data `{cursor, reason}`.",
    success: { status: 200, schema: EventStreamPage, description: "Feed items after the cursor (JSON mode)." },
    errors: [],
  }),
} as const;

export type OperationId = keyof typeof OPERATIONS;
export const OPERATION_LIST: readonly Operation[] = Object.values(OPERATIONS);

/**
 * Every error code an operation can answer: its own codes plus those the request pipeline (lib/http/pipeline.ts)
 * adds from its flags, in pipeline order. Sorted by HTTP status by the document builder.
 */
export function operationErrors(op: Operation): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (op.body) codes.push("UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE");
  codes.push("INVALID_API_KEY", "RATE_LIMITED", "INSUFFICIENT_SCOPE");
  if (op.allowList) codes.push("IP_NOT_ALLOWED");
  if (op.idempotent || op.body || op.query) codes.push("VALIDATION_ERROR");
  if (op.idempotent) codes.push("IDEMPOTENCY_CONFLICT");
  if (op.pathId) codes.push("NOT_FOUND");
  codes.push(...op.errors, "INTERNAL_ERROR", "SERVICE_UNAVAILABLE");
  return [...new Set(codes)];
}
