/** Types of scripts/pack-clients.mjs for the TypeScript tests. */
export function contractDocument(): Promise<{ info: { version: string }; paths: Record<string, Record<string, unknown>> }>;
export function packClients(out?: string): Promise<{ version: string; client: string; cli: string; sandbox: string; python: string | null }>;
export const PREPARE: Record<"client" | "cli" | "sandbox", () => Promise<unknown>>;
export const CLONE_BUILD_LOCK: string;
