// What the customer pages say after their form was refused before the page's script had loaded (or without it): the
// action route answers 303 to the page with `problem=<error code>` (lib/application/http/customer-pipeline.ts
// formAnswerLocation; docs/decisions/0209-customer-forms-post-to-their-action-routes.md). The page words the code
// itself: a link's query never puts its own text on the page. Pure; used on the server.

/** The words for each error code a customer action answers (docs/api.md "Errors"); any other code gets {@link OTHER}. */
const PROBLEMS: Record<string, string> = {
  RATE_LIMITED: "Too many tries from this connection. Wait a minute, then try again.",
  INVALID_STATE: "This checkout had already moved on, so nothing more was done. This page shows where it stands now.",
  VALIDATION_ERROR: "Check the amount and the currency, then try again.",
  AMOUNT_OUT_OF_RANGE: "This amount is outside what this checkout accepts. Enter another amount.",
  DAILY_LIMIT: "This amount is over today's limit. Enter a smaller amount or try again tomorrow.",
  MONTHLY_LIMIT: "This amount is over this month's limit. Enter a smaller amount.",
  FX_RATE_MISSING: "There is no exchange rate for this currency today. Choose another currency or try again later.",
  PRICING_DISABLED: "This currency cannot be paid in right now. Choose another currency.",
  NOT_FOUND: "This checkout could not be found. Open the link you were given again.",
};
const OTHER = "That did not go through. Please try again in a moment.";

/** An action's name as the page's query gives it, one of the four customer actions, or null. */
export type ProblemAction = "quote" | "confirm" | "pay" | "decline";

/** A refusal the page shows: its words and which action was refused. */
export type PageProblem = { message: string; action: ProblemAction | null; amount: string | null; currency: string | null };

const ACTIONS: readonly string[] = ["quote", "confirm", "pay", "decline"];
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/**
 * The refusal a page's query reports (`?problem=RATE_LIMITED&action=quote&amount=150&currency=USD`), or null
 * without one. `amount` and `currency` are what the customer sent, for the amount field to keep; nothing else of
 * the query is shown.
 */
export function pageProblem(query: Record<string, string | string[] | undefined>): PageProblem | null {
  const code = first(query.problem);
  if (!code) return null;
  const action = first(query.action);
  return {
    message: PROBLEMS[code] ?? OTHER,
    action: action && ACTIONS.includes(action) ? (action as ProblemAction) : null,
    amount: first(query.amount),
    currency: first(query.currency),
  };
}
