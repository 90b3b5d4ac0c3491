import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/domain/keys/api-keys";

// The scopes in words are one table (SCOPE_DESCRIPTIONS): the console's key form shows it, and docs/api.md
// "Authentication" 3 says each description word for word.

describe("scope descriptions", () => {
  it('docs/api.md "Authentication" states each scope\'s description as the console shows it', () => {
    const api = fs.readFileSync(path.resolve(__dirname, "../../../docs/api.md"), "utf8");
    for (const scope of SCOPES) expect(api, scope).toContain(`- \`${scope}\`: ${SCOPE_DESCRIPTIONS[scope]}`);
  });
});
