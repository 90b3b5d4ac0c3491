// In-process wake-up of an embedded-driver job, so work committed in this process starts without waiting
// for the next poll. Kept on globalThis: Next.js may load the driver and a route handler as separate
// module instances in one process.

type WakeTable = Map<string, () => void>;
const g = globalThis as unknown as { __sandpiperWake?: WakeTable };

function table(): WakeTable {
  g.__sandpiperWake ??= new Map();
  return g.__sandpiperWake;
}

/** The embedded driver registers how to run job `id` now. */
export function onWake(id: string, run: () => void): void {
  table().set(id, run);
}

/** Asks the embedded driver of this process to run job `id` now; does nothing when no driver runs here. */
export function wakeJob(id: string): void {
  table().get(id)?.();
}
