import { operation, PAYMENT_RULES } from "@/lib/application/openapi/operation";
import { Payment, PaymentList } from "@/lib/contract/schemas/api/payment-resource";
import { CreatePayment, ListPaymentsQuery } from "@/lib/contract/schemas/api/payments";

/** The payments themselves: create, list and read (docs/api.md "Endpoints"). */
export const PAYMENT_OPERATIONS = {
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
} as const;
