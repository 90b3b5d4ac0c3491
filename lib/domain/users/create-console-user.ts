import { hash } from "@node-rs/argon2";
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/platform/db";
import { processState } from "@/lib/platform/process-state";

/**
 * Hashes a console password with argon2id (OWASP parameters: 19 MiB, 2 iterations).
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

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
      passwordHash: await (input.password === null ? noPasswordHash() : hashPassword(input.password)),
      role: input.role,
      merchantId: input.role === "MERCHANT" ? (input.merchantId ?? null) : null,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    },
  });
}
