import { operation, PAYMENT_RULES } from "@/lib/application/openapi/operation";
import { CheckoutSession } from "@/lib/contract/schemas/api/checkout-session-resource";
import { CreateCheckoutSession, CreateCheckoutSessionRequest } from "@/lib/contract/schemas/api/checkout-sessions";
import { StorePayment } from "@/lib/contract/schemas/api/store-payment-resource";
import { CreateStorePayment } from "@/lib/contract/schemas/api/store-payments";

/** The checkouts a customer completes: store payments and amount-entry checkout sessions (docs/api.md "Endpoints"). */
export const CHECKOUT_OPERATIONS = {
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
} as const;
