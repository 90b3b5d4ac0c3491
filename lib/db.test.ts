import { afterEach, describe, expect, it } from "vitest";
import { PREPARED_TEXTS_MAX, preparedName } from "@/lib/db";

describe("preparedName (docs/architecture.md \"Hot paths\": statements prepared once per connection)", () => {
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
