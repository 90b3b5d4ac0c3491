/** Types of scripts/build-stamp.mjs for the TypeScript tests. */
export function buildFingerprint(root: string): string;
export function writeBuildStamp(root: string): void;
export function isBuildCurrent(root: string): boolean;
export function staleBuildReason(root: string): string | null;
