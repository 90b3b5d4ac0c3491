import { randomUUID } from "node:crypto";
import { transaction, type Tx } from "@/lib/platform/db";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { ApiError } from "@/lib/contract/errors";
import { createConsoleUser, db } from "./fixtures";

/** A console actor for a user row. */
export function actorOf(user: { id: string; username: string; role: "OPERATOR" | "MERCHANT"; merchantId: string | null }): ConsoleActor {
  return { id: user.id, username: user.username, role: user.role, merchantId: user.merchantId };
}

/** A fresh OPERATOR user as an actor. */
export async function newOperator(): Promise<ConsoleActor> {
  return actorOf(await createConsoleUser(db, { username: `op-${randomUUID().slice(0, 8)}`, password: "operator-password-1", role: "OPERATOR" }));
}

/** Runs a console mutation in a transaction (as the Server Actions do). */
export function inTx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return transaction(fn);
}

/** The ApiError code and message a promise rejects with (fails the test when it resolves or throws something else). */
export async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal, but the call succeeded");
}

/** Audit rows about one entity, oldest first. */
export function auditOf(entityId: string) {
  return db.auditLog.findMany({ where: { entityId }, orderBy: { createdAt: "asc" } });
}

/**
 * The console's pricing form (app/console pricing page, `PricingVersionInput`) as a browser posts it: EUR gateway
 * deposits charged and settled in EUR, a 9 % commission and nothing else, enabled; `over` replaces fields.
 */
export function pricingForm(merchantId: string, over: Record<string, string> = {}): Record<string, string> {
  return {
    merchantId,
    currency: "EUR",
    channel: "GATEWAY",
    direction: "DEPOSIT",
    chargeCurrency: "EUR",
    settlementCurrency: "EUR",
    markupBps: "0",
    bufferBps: "0",
    commissionType: "PERCENT",
    commissionBps: "900",
    commissionFixed: "",
    reserveBps: "0",
    delayDays: "0",
    reserveDays: "0",
    minAmount: "",
    maxAmount: "",
    dailyLimit: "",
    monthlyLimit: "",
    enabled: "on",
    reason: "new commission",
    ...over,
  };
}
