import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/domain/users/password-hash";

// The console's password hashes (docs/decisions/0200-password-hashing-in-webassembly.md): argon2id with the OWASP
// parameters, and every hash stored before the change (written by the native @node-rs/argon2 2.2.1 with the same
// parameters) still verifies.

/** Hashes the native library wrote (`hash(password, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 })`), as console_users rows hold them. */
const STORED_BY_THE_NATIVE_LIBRARY = [
  ["correct horse battery staple", "$argon2id$v=19$m=19456,t=2,p=1$wm9J1G8zpcz94M7TxlcEzQ$snAKA6IXmElG9OqoW8h+Xyb+yMRlo1tSnXgFA1QKhb0"],
  ["pässwörd ✓ 密码", "$argon2id$v=19$m=19456,t=2,p=1$euVFbOyghTZBQLoJ6HAUwA$Riw0+yuOc+owy1GHxUKSmi+aYc29+jBCqrRJBEp56Os"],
] as const;

describe("console password hashes", () => {
  it("a new hash is argon2id v19 with 19 MiB, 2 iterations, 1 lane, a 16-byte salt and a 32-byte hash, and verifies", async () => {
    const stored = await hashPassword("correct horse battery staple");
    const match = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
    expect(match, stored).not.toBeNull();
    expect(Buffer.from(match?.[1] ?? "", "base64")).toHaveLength(16);
    expect(Buffer.from(match?.[2] ?? "", "base64")).toHaveLength(32);
    expect(await verifyPassword(stored, "correct horse battery staple")).toBe(true);
    expect(await verifyPassword(stored, "correct horse battery stapler")).toBe(false);
    expect(await hashPassword("correct horse battery staple"), "a new salt each time").not.toBe(stored);
  });

  it("hashes stored by the native library before verify with their password and refuse any other", async () => {
    for (const [password, stored] of STORED_BY_THE_NATIVE_LIBRARY) {
      expect(await verifyPassword(stored, password), password).toBe(true);
      expect(await verifyPassword(stored, `${password} `), password).toBe(false);
      expect(await verifyPassword(stored, password.toUpperCase()), password).toBe(false);
    }
  });

  it("an empty password, a changed hash or a value that is not an argon2id PHC string is refused, never thrown", async () => {
    const [[password, stored]] = STORED_BY_THE_NATIVE_LIBRARY;
    expect(await verifyPassword(stored, "")).toBe(false);
    expect(await verifyPassword(stored.replace("Xyb+", "Xyc+"), password)).toBe(false);
    expect(await verifyPassword(stored.replace("m=19456", "m=19457"), password)).toBe(false);
    expect(await verifyPassword(stored.replace("$argon2id$", "$argon2i$"), password)).toBe(false);
    expect(await verifyPassword("", password)).toBe(false);
    expect(await verifyPassword("$2b$10$abcdefghijklmnopqrstuv", password)).toBe(false);
    await expect(hashPassword("")).rejects.toThrow();
  });
});
