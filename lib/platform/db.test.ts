import { afterEach, describe, expect, it, vi } from "vitest";
import { PREPARED_TEXTS_MAX, preparedName } from "@/lib/platform/db";
import type { PrismaClient } from "@/lib/platform/generated/prisma/client";

describe('preparedName (docs/architecture.md "Hot paths": statements prepared once per connection)', () => {
  afterEach(() => {
    delete process.env.SANDPIPER_EMBEDDED;
    delete process.env.DB_PREPARED_STATEMENTS;
  });

  it("names a text by its digest, the same name every time; different texts get different names", () => {
    const a = preparedName("SELECT 1 AS a WHERE $1::int > 0");
    expect(a).toMatch(/^sp\d+_[0-9a-f]{16}$/);
    expect(preparedName("SELECT 1 AS a WHERE $1::int > 0")).toBe(a);
    expect(preparedName("SELECT 2 AS a WHERE $1::int > 0")).not.toBe(a);
  });

  it("leaves statements unnamed on the embedded database and when DB_PREPARED_STATEMENTS=0", () => {
    process.env.SANDPIPER_EMBEDDED = "1";
    expect(preparedName("SELECT 'embedded'")).toBeUndefined();
    delete process.env.SANDPIPER_EMBEDDED;
    process.env.DB_PREPARED_STATEMENTS = "0";
    expect(preparedName("SELECT 'pooler'")).toBeUndefined();
    delete process.env.DB_PREPARED_STATEMENTS;
    expect(preparedName("SELECT 'pooler'")).toMatch(/^sp\d+_/);
  });

  it(`names at most ${PREPARED_TEXTS_MAX} texts per process; later texts are sent unnamed, named ones keep their name`, () => {
    const first = preparedName("SELECT 'first'");
    for (let i = 0; i < PREPARED_TEXTS_MAX; i++) preparedName(`SELECT ${i} AS n`);
    expect(preparedName("SELECT 'one too many'")).toBeUndefined();
    expect(preparedName("SELECT 'first'")).toBe(first);
  });
});

describe('transaction: after-commit hooks (docs/architecture.md "Consistency": notifications after the commit)', () => {
  it("logs a hook that fails, with its message, and still runs the others", async () => {
    const { afterCommit, transaction } = await import("@/lib/platform/db");
    const { log } = await import("@/lib/platform/log");
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const ran: string[] = [];
    // A stand-in client whose $transaction runs the body on a transaction object and commits.
    const db = { $transaction: async (body: (tx: object) => Promise<unknown>) => body({}) } as unknown as PrismaClient;
    try {
      await transaction(
        async (tx) => {
          afterCommit(tx, () => {
            throw new Error("announcement refused");
          });
          afterCommit(tx, () => ran.push("second"));
        },
        { db },
      );
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith({ err: "announcement refused" }, "after-commit hook failed; the background jobs will catch up"));
      expect(ran).toEqual(["second"]);
    } finally {
      warn.mockRestore();
    }
  });
});
