import type { z } from "zod";
import type { ErrorCode } from "@/lib/contract/errors";
import type { Endpoint } from "@/lib/application/http/endpoint";

/**
 * One merchant API endpoint, declared once: what its route handler runs with (the {@link Endpoint} part: scope,
 * idempotency mode, allow-list, body and query schemas, no-store, whether it has a load, its success answer; the
 * route passes the entry to lib/application/http/pipeline.ts `merchantApi`, which types the handler from it), what the OpenAPI
 * document publishes about it, and what the contract tests (access matrix, hostile input, response validation)
 * iterate over.
 */
export type Operation = Endpoint & {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
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
export const operation = <const O extends OperationEntry>(o: O): O & { idempotent: O["idempotency"] extends "none" ? false : true } => ({
  ...o,
  idempotent: (o.idempotency !== "none") as O["idempotency"] extends "none" ? false : true,
});

/** The create statement's own refusals, shared by the endpoints that create a payment. */
export const PAYMENT_RULES: ErrorCode[] = [
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
