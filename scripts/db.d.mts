export const root: string;
export function generateClient(): void;
export function migrate(databaseUrl: string, opts?: { lockHeld?: boolean }): Promise<number>;
export function committedMigrations(): string[];
export function pendingMigrations(databaseUrl: string): Promise<string[]>;
export function isEmpty(databaseUrl: string): Promise<boolean>;
export function seed(databaseUrl: string, args?: string[], env?: Record<string, string>): Promise<string>;
export function freePort(): Promise<number>;
export class EmbeddedFolderInUseError extends Error {}
export function lockEmbeddedFolder(dataDir: string): Promise<{ release(): Promise<void> }>;
export function startEmbeddedDb(dataDir?: string, opts?: { lock?: { release(): Promise<void> } }): Promise<{ url: string; stop(): Promise<void> }>;
export function databaseTarget(databaseUrl: string): { host: string; port: string; name: string; user: string };
export class DatabaseUnusableError extends Error {}
export class MissingDatabaseError extends DatabaseUnusableError {}
export function connectionProblem(error: unknown, databaseUrl: string): string;
export function ensureDatabase(databaseUrl: string, log?: (line: string) => void): Promise<boolean>;
export function ensureDatabaseOrExit(databaseUrl: string): Promise<void>;
export function withCommandDatabase<T>(fn: (url: string, env: Record<string, string>, dataDir: string) => Promise<T>): Promise<T>;
export function sharedAuthSecret(databaseUrl: string, carried?: string | null): Promise<string>;
