/** The generated files' text (`schema.ts`, `operations.ts`) for a parsed OpenAPI document. */
export function generate(doc: unknown): Promise<{ "schema.ts": string; "operations.ts": string }>;
/** Reads an OpenAPI document from a URL or a file. */
export function readDocument(source: string): Promise<unknown>;
