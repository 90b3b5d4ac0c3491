// The one rule on loopback addresses (docs/operating.md "Environment", CALLBACK_ALLOW_LOOPBACK): callback receivers and
// the customer pages' return addresses on this machine are allowed only with CALLBACK_ALLOW_LOOPBACK=1 and NODE_ENV other
// than production; that variable under production stops the start. Plain JavaScript, so that server.mjs applies it before
// Next.js loads; lib/domain/addresses/loopback.ts applies it to every address checked and instrumentation.ts again at
// `next start`.

/**
 * Whether loopback callback receivers are allowed.
 * @param {boolean} allowLoopback CALLBACK_ALLOW_LOOPBACK
 * @param {string | undefined} nodeEnv NODE_ENV as the process runs it
 * @returns {boolean}
 */
export function loopbackAllowed(allowLoopback, nodeEnv) {
  return allowLoopback && nodeEnv !== "production";
}

/**
 * Why the service must not start, or null when it may: CALLBACK_ALLOW_LOOPBACK=1 together with NODE_ENV=production.
 * @param {boolean} allowLoopback CALLBACK_ALLOW_LOOPBACK
 * @param {string | undefined} nodeEnv NODE_ENV as the process runs it
 * @returns {string | null} one sentence that says what to do instead
 */
export function loopbackRefusal(allowLoopback, nodeEnv) {
  if (!allowLoopback || nodeEnv !== "production") return null;
  return (
    "CALLBACK_ALLOW_LOOPBACK=1 is not allowed when NODE_ENV=production " +
    "(loopback callback receivers are for tests and local development only). For local work run `npm run start:local`; " +
    "to deliver to a receiver on a developer's machine, keep this service as it is and run `sandpiper listen --forward-to <local address>` " +
    'there (docs/guides/command-line.md "The sandpiper command"). Otherwise unset CALLBACK_ALLOW_LOOPBACK.'
  );
}
