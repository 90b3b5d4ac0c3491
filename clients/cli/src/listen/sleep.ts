// A wait that a stop cuts short, for the listener's backoff and polling (docs/callbacks.md "sandpiper listen").

/**
 * Resolves after `ms` milliseconds, or at once when `signal` aborts (or has already aborted); never rejects.
 * The abort listener it adds is removed when the timer fires, so a long-lived signal shared by many waits
 * (the listener's stop signal across reconnects) keeps no listener per wait and never reaches Node's
 * MaxListenersExceededWarning.
 * @param ms the wait in milliseconds (as setTimeout takes it).
 * @param signal ends the wait early when it aborts.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
