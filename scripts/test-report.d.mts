/** Types of scripts/test-report.mjs for the TypeScript tests. */
export function stepTable(steps: { name: string; seconds: number; ok: boolean }[], totalSeconds: number): string;
export function slowestFiles(vitest: unknown, playwright: unknown, root: string, count: number): string;
export function failureList(vitest: unknown, playwright: unknown, root: string, max?: number): string;
