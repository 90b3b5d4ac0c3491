import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/platform/db";
import { processState } from "@/lib/platform/process-state";
import { hashPassword } from "@/lib/domain/users/password-hash";

/** A new random console password: 16 characters of base64url (96 random bits), above MIN_PASSWORD_LENGTH. */
export function randomPassword(): string {
  return randomBytes(12).toString("base64url");
}

/**
 * The hash of a user made without a password: of 32 random bytes that are thrown away, so no password signs in and a
 * sign-in takes as long as any other; made once per process (a hash takes tens of milliseconds of CPU).
 */
function noPasswordHash(): Promise<string> {
  return (processState().noPasswordHash ??= hashPassword(randomBytes(32).toString("base64url")));
}

/**
 * The stored hash of a new console user's password (argon2id), or for `null` the hash of a random secret no one
 * knows (made once a process): a user who cannot sign in until an operator sets a password.
 */
export function consolePasswordHash(password: string | null): Promise<string> {
  return password === null ? noPasswordHash() : hashPassword(password);
}

/**
 * Creates a console user with an argon2id password hash. `password: null` makes a user who cannot sign in until an
 * operator sets a password (its console password reset): the API key owner of a merchant made
 * for one test (lib/simulators/sandbox-merchants).
 */
export async function createConsoleUser(
  db: Db,
  input: { username: string; password: string | null; role: "OPERATOR" | "MERCHANT"; merchantId?: string | null; createdAt?: Date },
) {
  return db.consoleUser.create({
    data: {
      username: input.username,
      passwordHash: await consolePasswordHash(input.password),
      role: input.role,
      merchantId: input.role === "MERCHANT" ? (input.merchantId ?? null) : null,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    },
  });
}
