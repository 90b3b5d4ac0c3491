// Waiting on a condition, for the tests and the benchmarks: a check polled until it holds or a deadline passes,
// instead of a fixed sleep that guesses how long the state takes to be reached.

/**
 * Polls `check` every `intervalMs` (default 100 ms) until it returns a truthy value, and resolves with that value.
 * An error thrown by `check` ends the wait at once (a check that must tolerate one, such as a fetch before the
 * server listens, catches it itself).
 * @param opts.what what is awaited, in words: the failure message names it ("the callback to be delivered")
 * @param opts.timeoutMs the deadline in milliseconds of real time from the call (default 10 s)
 * @throws Error "timed out after N ms waiting for <what>", or the error `check` threw
 */
export async function waitUntil<T>(
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  opts: { what: string; timeoutMs?: number; intervalMs?: number },
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${opts.what}`);
    // waits on purpose: the interval between two checks
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
  }
}
