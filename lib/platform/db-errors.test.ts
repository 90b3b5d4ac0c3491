import pg from "pg";
import { describe, expect, it } from "vitest";
import { classifyDbError, sqlStateKind } from "@/lib/platform/db-errors";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import { toApiError } from "@/lib/application/http/respond";

/** node-postgres' error for a statement the server refused with `code`. */
function driverError(code: string, message = "refused", constraint?: string): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError(message, message.length, "error"), { code, severity: "ERROR", constraint });
}

/** Prisma's error for a query through the driver adapter, as lib/platform/db.ts runs it. */
function prismaError(code: string, meta?: Record<string, unknown>): Prisma.PrismaClientKnownRequestError {
  return new Prisma.PrismaClientKnownRequestError("query failed", { code, clientVersion: "6", meta });
}

const adapter = (cause: Record<string, unknown>) => prismaError("P2010", { driverAdapterError: { cause } });

describe("sqlStateKind", () => {
  it.each([
    ["23505", "unique-violation"],
    ["40001", "serialization-failure"],
    ["40P01", "deadlock"],
    ["57014", "query-cancelled"],
    ["08006", "connection"],
    ["08001", "connection"],
    ["57P01", "connection"],
    ["57P03", "connection"],
    ["53300", "connection"],
    ["23503", "other"],
    ["42P01", "other"],
    ["P0001", "other"],
  ] as const)("%s -> %s", (code, kind) => expect(sqlStateKind(code)).toBe(kind));
});

describe("classifyDbError", () => {
  it("reads node-postgres' SQLSTATE, and a unique violation's constraint", () => {
    expect(classifyDbError(driverError("23505", "duplicate key", "payments_merchant_id_reference_key"))).toEqual({
      kind: "unique-violation",
      sqlState: "23505",
      constraint: { name: "payments_merchant_id_reference_key", fields: [] },
    });
    expect(classifyDbError(driverError("40P01"))).toEqual({ kind: "deadlock", sqlState: "40P01" });
    expect(classifyDbError(driverError("57014"))).toEqual({ kind: "query-cancelled", sqlState: "57014" });
  });

  it("reads Prisma's codes and the driver adapter's cause", () => {
    expect(classifyDbError(prismaError("P2002", { target: ["merchant_id", "reference"] }))).toMatchObject({
      kind: "unique-violation",
      constraint: { name: null, fields: ["merchant_id", "reference"] },
    });
    expect(classifyDbError(prismaError("P2034"))).toMatchObject({ kind: "serialization-failure" });
    expect(classifyDbError(prismaError("P2024"))).toEqual({ kind: "timeout" });
    expect(classifyDbError(prismaError("P2028"))).toEqual({ kind: "timeout" });
    expect(classifyDbError(adapter({ kind: "UniqueConstraintViolation", originalCode: "23505", constraint: { fields: ["key"] } }))).toEqual({
      kind: "unique-violation",
      sqlState: "23505",
      constraint: { name: null, fields: ["key"] },
    });
    expect(classifyDbError(adapter({ kind: "TransactionWriteConflict", originalCode: "40001" }))).toMatchObject({
      kind: "serialization-failure",
      sqlState: "40001",
    });
    expect(classifyDbError(adapter({ kind: "postgres", code: "57P01", message: "terminating connection due to administrator command" }))).toMatchObject({
      kind: "connection",
    });
    expect(classifyDbError(adapter({ kind: "DatabaseNotReachable" }))).toEqual({ kind: "connection" });
    expect(classifyDbError(prismaError("P2010", { code: "08006" }))).toMatchObject({ kind: "connection", sqlState: "08006" });
    expect(classifyDbError(new Prisma.PrismaClientInitializationError("Can't reach database server", "6", "P1001"))).toEqual({ kind: "connection" });
  });

  it("follows the cause chain, and counts socket errors as connection errors", () => {
    expect(classifyDbError(new Error("Transaction failed", { cause: driverError("40001") }))).toMatchObject({ kind: "serialization-failure" });
    expect(classifyDbError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toEqual({ kind: "connection" });
    expect(classifyDbError(new Error("Connection terminated unexpectedly"))).toEqual({ kind: "connection" });
  });

  it("never classifies by the words of a message that has a code, or of an unrelated error", () => {
    expect(classifyDbError(new Error("deadlock detected"))).toEqual({ kind: "other" });
    expect(classifyDbError(driverError("42P01", "Connection terminated? no: relation does not exist"))).toEqual({ kind: "other", sqlState: "42P01" });
    expect(classifyDbError(prismaError("P2025"))).toEqual({ kind: "other" });
    expect(classifyDbError("a string")).toEqual({ kind: "other" });
    expect(classifyDbError(undefined)).toEqual({ kind: "other" });
  });
});

describe("toApiError on database errors", () => {
  it.each([
    [driverError("23505", "dup", "payments_merchant_id_reference_key"), 409, "DUPLICATE_REFERENCE"],
    [prismaError("P2002", { target: ["merchant_id", "key"] }), 409, "INVALID_STATE"],
    [prismaError("P2002", { target: ["merchant_id", "reference"] }), 409, "DUPLICATE_REFERENCE"],
    [
      prismaError("P2002", { driverAdapterError: { cause: { constraint: { index: "checkout_sessions_merchant_id_reference_key" } } } }),
      409,
      "DUPLICATE_REFERENCE",
    ],
    // A constraint whose name only mentions a reference is not a merchant's reference key: the name is matched whole.
    [driverError("23505", "dup", "store_checkouts_reference_code_key"), 409, "INVALID_STATE"],
    [driverError("40001"), 503, "SERVICE_UNAVAILABLE"],
    [driverError("40P01"), 503, "SERVICE_UNAVAILABLE"],
    [driverError("57014"), 503, "SERVICE_UNAVAILABLE"],
    [driverError("57P01"), 503, "SERVICE_UNAVAILABLE"],
    [prismaError("P1017"), 503, "SERVICE_UNAVAILABLE"],
    [driverError("42P01"), 500, "INTERNAL_ERROR"],
  ] as const)("%s -> %i %s", (error, status, code) => {
    const mapped = toApiError(error, "req-1");
    expect(mapped.status).toBe(status);
    expect(mapped.code).toBe(code);
    if (status === 503) expect(mapped.headers).toMatchObject({ "Retry-After": "1" });
  });
});
