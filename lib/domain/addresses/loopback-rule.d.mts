/** Types of lib/domain/addresses/loopback-rule.mjs (the one loopback rule, shared with server.mjs). */
export function loopbackAllowed(allowLoopback: boolean, nodeEnv: string | undefined): boolean;
export function loopbackRefusal(allowLoopback: boolean, nodeEnv: string | undefined): string | null;
