/** The generated files' text (`schema.ts`, `operations.ts`) for a parsed OpenAPI document. */
export function generate(doc: unknown): Promise<{ "schema.ts": string; "operations.ts": string }>;
/** Reads an OpenAPI document from a URL or a file. */
export function readDocument(source: string): Promise<unknown>;
/** The document without the customer pages' actions (operations marked `x-bearer-link`): what the client is generated from. */
export function merchantDocument<D extends { paths?: Record<string, Record<string, unknown>> }>(doc: D): D;
