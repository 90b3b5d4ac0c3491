import { randomBytes, timingSafeEqual } from "node:crypto";
import { argon2id } from "hash-wasm";

/**
 * The console's password hashes: argon2id with the OWASP Password Storage Cheat Sheet's parameters (19 MiB of memory,
 * 2 iterations, 1 lane), a 16-byte random salt and a 32-byte hash, written in the PHC string format
 * (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, unpadded base64). Computed by the native `@node-rs/argon2` where it
 * is installed (the service: on libuv's thread pool, off the event loop), else by hash-wasm's WebAssembly build of the
 * same algorithm (the sandbox package, which carries no native binary and runs on every platform Node.js runs on):
 * docs/decisions/0200-password-hashing-in-webassembly.md. Both write and verify the same strings.
 */
export const PASSWORD_HASH_PARAMETERS = { memorySize: 19_456, iterations: 2, parallelism: 1, hashLength: 32, saltLength: 16 } as const;

/** The native binding, loaded once: null where it is not installed (the sandbox package) or cannot load there. */
let native: Promise<typeof import("@node-rs/argon2") | null> | undefined;
function nativeArgon2(): Promise<typeof import("@node-rs/argon2") | null> {
  return (native ??= import("@node-rs/argon2").catch(() => null));
}

/** A stored argon2id hash in the PHC string format: variant, version, memory (KiB), iterations, lanes, salt and hash. */
const PHC_ARGON2ID = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{6,})$/;

/**
 * Hashes a console password (docs/guides/console-for-operators.md "Console tour", sign-in) with argon2id and
 * {@link PASSWORD_HASH_PARAMETERS}: a new random salt each call.
 * @param password the password as typed (UTF-8), at least one character
 * @param implementation "any" (the native binding where installed, else WebAssembly); "native" or "webassembly" force one (tests)
 * @returns the PHC string stored in console_users.password_hash
 * @throws Error when the password is empty, or "native" is asked for where the binding is not installed
 */
export async function hashPassword(password: string, implementation: "native" | "webassembly" | "any" = "any"): Promise<string> {
  const { memorySize, iterations, parallelism, hashLength, saltLength } = PASSWORD_HASH_PARAMETERS;
  if (!password) throw new Error("a password must not be empty");
  const fast = implementation === "webassembly" ? null : await nativeArgon2();
  if (fast) return fast.hash(password, { algorithm: 2, memoryCost: memorySize, timeCost: iterations, parallelism, outputLen: hashLength });
  if (implementation === "native") throw new Error("the native argon2 binding is not installed");
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
 * @param implementation as for {@link hashPassword}
 * @returns false for a wrong password, an empty one, or a stored value that is not an argon2id v19 PHC string
 * @throws Error only when "native" is asked for where the binding is not installed
 */
export async function verifyPassword(stored: string, password: string, implementation: "native" | "webassembly" | "any" = "any"): Promise<boolean> {
  const match = PHC_ARGON2ID.exec(stored);
  if (!match || password.length === 0) return false;
  const fast = implementation === "webassembly" ? null : await nativeArgon2();
  if (fast) return fast.verify(stored, password).catch(() => false);
  if (implementation === "native") throw new Error("the native argon2 binding is not installed");
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
