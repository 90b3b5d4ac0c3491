/** Types of scripts/pack-sandbox.mjs for the TypeScript tests. */
export const SANDBOX_BUILT: string[];
export function buildSandbox(dir: string, clientDir: string): Promise<void>;
export function packSandbox(out: string, version: string, clientDir: string): Promise<string>;
export function prepareDatabase(dir: string): Promise<Record<string, number>>;
export function sandboxInputsHash(): string;
export const esbuildBase: Record<string, unknown>;
export function packLock(file: string, what?: string): Promise<() => void>;
