// Debian's Chromium as the tests and benchmarks start it (never `npx playwright install`): where it is and its flags.
// Without the background-networking flags it keeps trying hosts this machine's closed network refuses.

/** The Chromium binary: CHROMIUM_PATH, else Debian's. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The flags every Chromium of the tests and benchmarks starts with (root in a container: no sandbox; no GPU). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];
