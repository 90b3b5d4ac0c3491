"use server";

import { consoleAction } from "@/lib/application/console/action";
import { ClockForm, moveClockFromConsole } from "@/lib/simulators/sandbox-clock/clock";
import { countOf } from "@/lib/application/console/words";

/** Advances a merchant's sandbox clock by a duration, or resets it when none is given (docs/api.md "Sandbox clock"). */
export const moveClockAction = consoleAction(ClockForm, async ({ actor, tx, input }) => {
  const moved = await moveClockFromConsole(tx, actor, input);
  if (moved.advancedByMs === 0) return { message: "The sandbox clock is back at the real time." };
  const left = moved.due.payments + moved.due.checkoutSessions;
  return {
    message: `The sandbox clock now runs ${moved.offset} ahead.`,
    details: [
      { ok: true, text: `Payments expired: ${moved.expired.payments}; checkout sessions expired: ${moved.expired.checkoutSessions}.` },
      ...(left > 0
        ? [
            {
              ok: true,
              text: `Still to expire: ${countOf(moved.due.payments, "payment")}, ${countOf(moved.due.checkoutSessions, "checkout session")}; the expiry jobs work through them in batches within seconds (reload this page to follow).`,
            },
          ]
        : []),
      { ok: true, text: `Callback retries due now: ${moved.deliveriesDue}.` },
      ...moved.missingRates.map((m) => ({
        ok: false,
        text: `No ${m.pair} rate for ${m.days.join(", ")}: cross-currency payments on those days answer FX_RATE_MISSING until an operator enters it (FX rates page).`,
      })),
    ],
  };
});
