/** Types of scripts/pack-python.mjs for the TypeScript tests. */
export function wheelName(version: string): string;
export function packPython(out: string, version: string): string | null;
