import { randomBytes, timingSafeEqual } from "node:crypto";
import { argon2id } from "hash-wasm";

/**
 * The console's password hashes: argon2id with the OWASP Password Storage Cheat Sheet's parameters (19 MiB of memory,
 * 2 iterations, 1 lane), a 16-byte random salt and a 32-byte hash, written in the PHC string format
 * (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, unpadded base64). Computed by hash-wasm's WebAssembly build of
 * argon2, so the service and the sandbox package carry no native binary and run on every platform Node.js runs on
 * (docs/decisions/0200-password-hashing-in-webassembly.md); the hashes the earlier native library wrote are the same
 * format and verify unchanged.
 */
export const PASSWORD_HASH_PARAMETERS = { memorySize: 19_456, iterations: 2, parallelism: 1, hashLength: 32, saltLength: 16 } as const;

/** A stored argon2id hash in the PHC string format: variant, version, memory (KiB), iterations, lanes, salt and hash. */
const PHC_ARGON2ID = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{6,})$/;

/**
 * Hashes a console password (docs/guides/console-for-operators.md "Console tour", sign-in) with argon2id and
 * {@link PASSWORD_HASH_PARAMETERS}: a new random salt each call.
 * @param password the password as typed (UTF-8), at least one character
 * @returns the PHC string stored in console_users.password_hash
 * @throws Error when the password is empty
 */
export async function hashPassword(password: string): Promise<string> {
  const { memorySize, iterations, parallelism, hashLength, saltLength } = PASSWORD_HASH_PARAMETERS;
  return argon2id({
    password: Buffer.from(password, "utf8"),
    salt: randomBytes(saltLength),
    memorySize,
    iterations,
    parallelism,
    hashLength,
    outputType: "encoded",
  });
}

/**
 * Whether `password` is the one `stored` was made from: the argon2id hash of `password` with the stored hash's own
 * salt and parameters, compared in constant time. Any stored argon2id v19 hash verifies, whichever library wrote it.
 * @param stored a PHC string as {@link hashPassword} (or the earlier native library) wrote it
 * @param password the password as typed
 * @returns false for a wrong password, an empty one, or a stored value that is not an argon2id v19 PHC string
 */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const match = PHC_ARGON2ID.exec(stored);
  if (!match || password.length === 0) return false;
  const [, memory, iterations, parallelism, salt, hash] = match;
  const expected = Buffer.from(hash!, "base64");
  const actual = await argon2id({
    password: Buffer.from(password, "utf8"),
    salt: Buffer.from(salt!, "base64"),
    memorySize: Number(memory),
    iterations: Number(iterations),
    parallelism: Number(parallelism),
    hashLength: expected.length,
    outputType: "binary",
  });
  return timingSafeEqual(actual, expected);
}
