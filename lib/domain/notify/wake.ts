// In-process wake-up of an embedded-driver job, so work committed in this process starts without waiting
// for the next poll. Kept in lib/platform/process-state.ts: Next.js may load the driver and a route handler as separate
// module instances in one process.
import { processState } from "@/lib/platform/process-state";

function table(): Map<string, () => void> {
  return (processState().wake ??= new Map());
}

/** The embedded driver registers how to run job `id` now. */
export function onWake(id: string, run: () => void): void {
  table().set(id, run);
}

/** Asks the embedded driver of this process to run job `id` now; does nothing when no driver runs here. */
export function wakeJob(id: string): void {
  table().get(id)?.();
}
