"use server";

import { consoleAction } from "@/lib/console/action";
import { ClockForm, moveClockFromConsole } from "@/lib/sandbox-clock/clock";

/** Advances a merchant's sandbox clock by a duration, or resets it when none is given (docs/api.md "Sandbox clock"). */
export const moveClockAction = consoleAction(ClockForm, async ({ actor, tx, input }) => {
  const moved = await moveClockFromConsole(tx, actor, input);
  if (moved.advancedByMs === 0) return { message: "The sandbox clock is back at the real time." };
  return {
    message: `The sandbox clock now runs ${moved.offset} ahead.`,
    details: [
      { ok: true, text: `Payments expired: ${moved.expired.payments}; checkout sessions expired: ${moved.expired.checkoutSessions}.` },
      { ok: true, text: `Callback retries due now: ${moved.deliveriesDue}.` },
    ],
  };
});
