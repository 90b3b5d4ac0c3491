import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/platform/db";
import { hashPassword } from "@/lib/domain/users/password-hash";

/** A new random console password: 16 characters of base64url (96 random bits), above MIN_PASSWORD_LENGTH. */
export function randomPassword(): string {
  return randomBytes(12).toString("base64url");
}

/** Creates a console user with an argon2id password hash. */
export async function createConsoleUser(
  db: Db,
  input: { username: string; password: string; role: "OPERATOR" | "MERCHANT"; merchantId?: string | null; createdAt?: Date },
) {
  return db.consoleUser.create({
    data: {
      username: input.username,
      passwordHash: await hashPassword(input.password),
      role: input.role,
      merchantId: input.role === "MERCHANT" ? (input.merchantId ?? null) : null,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    },
  });
}
