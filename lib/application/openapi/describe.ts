import type { JsonSchema } from "@/lib/application/openapi/document";

/** One member of an object schema, as the reference page (/docs) lists it. */
export type MemberRow = { name: string; type: string; required: boolean; description: string };

const refName = (ref: string) => ref.split("/").pop() ?? ref;

/**
 * A short human-readable type of a JSON Schema (draft 2020-12 as generated from zod): "string (uuid)",
 * "Payment or null", "one of: A, B", "integer 1 to 100", "array of Payment", "string matching ^\d+$".
 */
export function describeType(schema: JsonSchema): string {
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(describeType).join(" or ");
  if (Array.isArray(schema.allOf)) return (schema.allOf as JsonSchema[]).map(describeType).join(" and ");
  if ("const" in schema) return `constant ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of: ${(schema.enum as unknown[]).map(String).join(", ")}`;
  const type = String(schema.type ?? "any");
  if (type === "array") return `array of ${describeType((schema.items as JsonSchema) ?? {})}`;
  if (type === "object" && schema.properties) {
    const members = memberRows(schema).map((m) => `${m.name}${m.required ? "" : "?"}: ${m.type}`);
    return `object { ${members.join("; ")} }`;
  }
  const limits: string[] = [];
  if (typeof schema.format === "string") limits.push(schema.format);
  if (typeof schema.minimum === "number" && schema.minimum > Number.MIN_SAFE_INTEGER) limits.push(`>= ${schema.minimum}`);
  if (typeof schema.maximum === "number" && schema.maximum < Number.MAX_SAFE_INTEGER) limits.push(`<= ${schema.maximum}`);
  if (typeof schema.minLength === "number" && schema.minLength > 1) limits.push(`min ${schema.minLength} chars`);
  if (typeof schema.maxLength === "number") limits.push(`max ${schema.maxLength} chars`);
  if (typeof schema.pattern === "string" && typeof schema.format !== "string") limits.push(`pattern ${schema.pattern}`);
  return limits.length ? `${type} (${limits.join(", ")})` : type;
}

/** The members of an object schema (empty for anything else), in declaration order. */
export function memberRows(schema: JsonSchema): MemberRow[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, member]) => ({
    name,
    type: describeType(member),
    required: required.has(name),
    description: typeof member.description === "string" ? member.description : "",
  }));
}
