export const root: string;
export function generateClient(): void;
export function migrate(databaseUrl: string): Promise<void>;
export function isEmpty(databaseUrl: string): Promise<boolean>;
export function seed(databaseUrl: string, args?: string[], env?: Record<string, string>): Promise<string>;
export function freePort(): Promise<number>;
export function startEmbeddedDb(dataDir?: string): Promise<{ url: string; stop(): Promise<void> }>;
export class MissingDatabaseError extends Error {}
export function ensureDatabase(databaseUrl: string, log?: (line: string) => void): Promise<boolean>;
export function ensureDatabaseOrExit(databaseUrl: string): Promise<void>;
export function withCommandDatabase<T>(fn: (url: string, env: Record<string, string>, dataDir: string) => Promise<T>): Promise<T>;
