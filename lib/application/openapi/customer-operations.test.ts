// The customer pages' actions in the registry and the OpenAPI document (lib/application/openapi/customer-operations.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument, type JsonSchema } from "@/lib/application/openapi/document";
import { CUSTOMER_OPERATION_LIST, CUSTOMER_PAGES_TAG, customerOperationErrors } from "@/lib/application/openapi/customer-operations";
import { ERROR_STATUS } from "@/lib/contract/errors";
import { assertPresent, present } from "../../../scripts/harness/present";

const root = path.resolve(import.meta.dirname, "../../..");

/** Every object property of a component, followed through nesting, that has no description. */
function undescribed(schema: JsonSchema, at: string): string[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).flatMap(([name, member]) => [
    ...(typeof member.description === "string" && member.description.length > 0 ? [] : [`${at}.${name}`]),
    ...undescribed(member, `${at}.${name}`),
  ]);
}

describe("customer pages in the registry and the document", () => {
  const doc = openApiDocument();

  it("lists the four actions, each route running its own entry through the customer pipeline", () => {
    expect(CUSTOMER_OPERATION_LIST.map((op) => `${op.method} ${op.path}`).sort()).toEqual([
      "POST /checkout/{token}/confirm",
      "POST /checkout/{token}/quote",
      "POST /store/{token}/decline",
      "POST /store/{token}/pay",
    ]);
    for (const op of CUSTOMER_OPERATION_LIST) {
      const source = readFileSync(path.join(root, op.route), "utf8");
      expect(source, `${op.route} uses customerAction(CUSTOMER_OPERATIONS.${op.operationId}, ...)`).toMatch(
        new RegExp(`customerAction\\(\\s*CUSTOMER_OPERATIONS\\.${op.operationId}\\s*,`),
      );
    }
  });

  it("publishes each under its tag with no API key, the token as a described path parameter and every error code", () => {
    expect(doc.tags.map((t) => t.name)).toContain(CUSTOMER_PAGES_TAG);
    for (const op of CUSTOMER_OPERATION_LIST) {
      const documented = doc.paths[op.path]?.post;
      expect(documented, op.path).toBeDefined();
      expect(documented?.operationId).toBe(op.operationId);
      expect(documented?.tags).toEqual([CUSTOMER_PAGES_TAG]);
      expect(documented?.security, `${op.operationId}: no API key`).toEqual([]);
      expect(documented?.["x-bearer-link"]).toBe(true);
      expect(documented?.["x-scope"]).toBeUndefined();
      expect(documented?.description).toMatch(/No API key: the token in the path is the credential/);
      expect(documented?.parameters).toEqual([expect.objectContaining({ name: "token", in: "path", required: true })]);
      expect(JSON.stringify(documented?.parameters)).toMatch(/bearer credential/);
      expect(Boolean(documented?.requestBody), `${op.operationId} body`).toBe(Boolean(op.body));
      expect(present(documented?.responses["200"], 'documented?.responses["200"]').headers).toHaveProperty("Cache-Control");
      for (const code of customerOperationErrors(op)) {
        expect(documented?.responses[ERROR_STATUS[code]]?.description, `${op.operationId} ${code}`).toContain(code);
      }
      expect(Object.keys(documented?.responses ?? {})).not.toContain("401");
    }
  });

  it("publishes the schemas the handlers parse and answer with as components, every property described", () => {
    const names = new Set<string>();
    for (const op of CUSTOMER_OPERATION_LIST) {
      const documented = present(doc.paths[op.path], "doc.paths[op.path]").post;
      assertPresent(documented, "documented");
      const refs = [
        present(documented.responses["200"], 'documented.responses["200"]').content?.["application/json"]?.schema,
        documented.requestBody?.content["application/json"]?.schema,
      ];
      for (const ref of refs) if (typeof ref?.$ref === "string") names.add(ref.$ref.split("/").pop()!);
    }
    expect([...names].sort()).toEqual(["CustomerPageAmount", "CustomerSessionAnswer", "StoreConfirmationAnswer"]);
    for (const name of names) expect(undescribed(present(doc.components.schemas[name], "doc.components.schemas[name]"), name), name).toEqual([]);
    for (const op of CUSTOMER_OPERATION_LIST) if (op.body && op.example) expect(op.body.safeParse(op.example).success, op.operationId).toBe(true);
  });
});
