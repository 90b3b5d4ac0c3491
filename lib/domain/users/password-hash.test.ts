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

const IMPLEMENTATIONS = ["native", "webassembly"] as const;

describe.each(IMPLEMENTATIONS)("console password hashes (%s)", (implementation) => {
  it("a new hash is argon2id v19 with 19 MiB, 2 iterations, 1 lane, a 16-byte salt and a 32-byte hash, and verifies", async () => {
    const stored = await hashPassword("correct horse battery staple", implementation);
    const match = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
    expect(match, stored).not.toBeNull();
    expect(Buffer.from(match?.[1] ?? "", "base64")).toHaveLength(16);
    expect(Buffer.from(match?.[2] ?? "", "base64")).toHaveLength(32);
    expect(await verifyPassword(stored, "correct horse battery staple", implementation)).toBe(true);
    expect(await verifyPassword(stored, "correct horse battery stapler", implementation)).toBe(false);
    expect(await hashPassword("correct horse battery staple", implementation), "a new salt each time").not.toBe(stored);
  });

  it("hashes stored by the native library before verify with their password and refuse any other", async () => {
    for (const [password, stored] of STORED_BY_THE_NATIVE_LIBRARY) {
      expect(await verifyPassword(stored, password, implementation), password).toBe(true);
      expect(await verifyPassword(stored, `${password} `, implementation), password).toBe(false);
      expect(await verifyPassword(stored, password.toUpperCase(), implementation), password).toBe(false);
    }
  });

  it("an empty password, a changed hash or a value that is not an argon2id PHC string is refused, never thrown", async () => {
    const [[password, stored]] = STORED_BY_THE_NATIVE_LIBRARY;
    expect(await verifyPassword(stored, "", implementation)).toBe(false);
    expect(await verifyPassword(stored.replace("Xyb+", "Xyc+"), password, implementation)).toBe(false);
    expect(await verifyPassword(stored.replace("m=19456", "m=19457"), password, implementation)).toBe(false);
    expect(await verifyPassword(stored.replace("$argon2id$", "$argon2i$"), password, implementation)).toBe(false);
    expect(await verifyPassword("", password, implementation)).toBe(false);
    expect(await verifyPassword("$2b$10$abcdefghijklmnopqrstuv", password, implementation)).toBe(false);
    await expect(hashPassword("")).rejects.toThrow();
  });
});

describe("the two implementations", () => {
  it("each verifies what the other wrote (the service writes with one, a sandbox with the other)", async () => {
    const native = await hashPassword("s3cret pass", "native");
    const wasm = await hashPassword("s3cret pass", "webassembly");
    expect(await verifyPassword(native, "s3cret pass", "webassembly")).toBe(true);
    expect(await verifyPassword(wasm, "s3cret pass", "native")).toBe(true);
    expect(await verifyPassword(wasm, "s3cret pasS", "native")).toBe(false);
  });
});
