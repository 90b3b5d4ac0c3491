import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { openApiDocument, type OpenApiDocument, type ResponseObject } from "@/lib/application/openapi/document";
import { assertPresent } from "../../scripts/harness/present";

// Every response the integration suite receives under /v1 is checked against the published OpenAPI document
// (the same object /v1/openapi.json serves): status documented for the operation, body valid against the
// documented schema (closed objects: an extra, missing or mistyped member fails), documented headers present.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = "sandpiper-openapi";

export const contractDocument: OpenApiDocument = JSON.parse(JSON.stringify(openApiDocument()));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(contractDocument, DOC_ID);

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
const validators = new Map<string, ValidateFunction>();

/** A compiled validator for a schema inside the document, addressed by JSON pointer segments. */
export function validatorAt(...parts: string[]): ValidateFunction {
  const ref = `${DOC_ID}#/${pointer(...parts)}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

type Matched = { template: string; method: string; responses: Record<string, ResponseObject> } | { template: string; method: null; allowed: string[] } | null;

// Literal segments win over parameters, as in the router: /v1/events/stream before /v1/events/{id}.
const templates = Object.keys(contractDocument.paths)
  .map((template) => ({
    template,
    parameters: (template.match(/\{/g) ?? []).length,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+").replace(/\./g, "\\.")}$`),
  }))
  .sort((a, b) => a.parameters - b.parameters);

/** The documented operation for a method and a concrete path (query string ignored). */
export function matchOperation(method: string, path: string): Matched {
  const pathname = path.split("?")[0];
  assertPresent(pathname, "pathname");
  const found = templates.find((t) => t.pattern.test(pathname));
  if (!found) return null;
  const methods = contractDocument.paths[found.template];
  assertPresent(methods, "methods");
  const op = methods[method.toLowerCase()];
  if (!op) return { template: found.template, method: null, allowed: Object.keys(methods).map((m) => m.toUpperCase()) };
  return { template: found.template, method: method.toLowerCase(), responses: op.responses };
}

export class ContractViolation extends Error {
  constructor(what: string, details: unknown) {
    super(`contract violation: ${what}\n${typeof details === "string" ? details : JSON.stringify(details, null, 2)}`);
    this.name = "ContractViolation";
  }
}

function checkBody(validate: ValidateFunction, body: unknown, what: string) {
  if (!validate(body)) throw new ContractViolation(`${what}: body does not match the documented schema`, { errors: validate.errors, body });
}

/**
 * Throws ContractViolation when a response under /v1, or of a customer page's documented action, does not match the
 * OpenAPI document: an undocumented
 * status, a body that fails the documented schema, or a missing X-Request-Id (and, for errors, one that
 * differs from error.requestId), a 429 without Retry-After, an Idempotency-Replayed other than "true".
 * Unknown paths must answer the 404 envelope, unserved methods the 405 envelope with Allow.
 */
export function assertMatchesContract(res: { method: string; path: string; status: number; headers: Headers; body: unknown }): void {
  const { method, path, status, headers, body } = res;
  // Outside /v1 only the customer pages' documented actions (tag "Customer pages") are checked.
  if (!path.startsWith("/v1/") && !matchOperation(method, path)?.method) return;
  const what = `${method} ${path} -> ${status}`;
  const requestId = headers.get("x-request-id");
  if (!requestId || !/^[0-9a-f-]{36}$/.test(requestId)) throw new ContractViolation(what, "missing or malformed X-Request-Id");
  if (status >= 400) {
    checkBody(validatorAt("components", "schemas", "Error"), body, what);
    if ((body as { error: { requestId: string } }).error.requestId !== requestId)
      throw new ContractViolation(what, "error.requestId differs from X-Request-Id");
  }
  if (status === 429 && !/^\d+$/.test(headers.get("retry-after") ?? "")) throw new ContractViolation(what, "429 without Retry-After");
  const replayed = headers.get("idempotency-replayed");
  if (replayed !== null && replayed !== "true") throw new ContractViolation(what, `Idempotency-Replayed: ${replayed}`);

  const matched = matchOperation(method, path);
  if (!matched) {
    if (status !== 404 || (body as { error: { code: string } }).error.code !== "NOT_FOUND")
      throw new ContractViolation(what, "an unknown path must answer 404 NOT_FOUND");
    return;
  }
  if (matched.method === null) {
    if (status !== 405 || (body as { error: { code: string } }).error.code !== "METHOD_NOT_ALLOWED")
      throw new ContractViolation(what, "an unserved method must answer 405 METHOD_NOT_ALLOWED");
    return;
  }
  const documented = matched.responses[String(status)];
  if (!documented)
    throw new ContractViolation(
      what,
      `status ${status} is not documented for ${method} ${matched.template} (documented: ${Object.keys(matched.responses).join(", ")})`,
    );
  if (documented.content?.["application/json"]) {
    checkBody(validatorAt("paths", matched.template, matched.method, "responses", String(status), "content", "application/json", "schema"), body, what);
  }
  for (const name of Object.keys(documented.headers ?? {})) {
    if (name === "Retry-After" && status !== 429) continue; // documented on 503 too, where it is advice
    if (name === "Idempotency-Replayed") continue; // only on replays
    if (headers.get(name) === null) throw new ContractViolation(what, `documented header ${name} is missing`);
  }
}

/**
 * Throws ContractViolation when a customer page's action (`/checkout/{token}/...`, `/store/{token}/...`) is not
 * documented (tag "Customer pages") or its answer does not match the document ({@link assertMatchesContract}).
 */
export function assertCustomerPageContract(res: { method: string; path: string; status: number; headers: Headers; body: unknown }): void {
  if (!matchOperation(res.method, res.path)?.method) throw new ContractViolation(`${res.method} ${res.path}`, "not documented as a customer page's action");
  assertMatchesContract(res);
}
