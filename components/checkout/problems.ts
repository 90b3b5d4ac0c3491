// What the customer pages say after their form was refused before the page's script had loaded (or without it): the
// action route answers 303 to the page with `problem=<error code>` (lib/application/http/customer-pipeline.ts
// formAnswerLocation; docs/decisions/0209-customer-forms-post-to-their-action-routes.md). The page words the code
// itself, in the page's language: a link's query never puts its own text on the page. Pure; used on the server and by the
// pages' scripts (components/checkout/post-action.ts).

/** The error codes a customer action answers that the page words itself (docs/api.md "Errors"); any other code gets `OTHER`. */
const CODES = [
  "RATE_LIMITED",
  "INVALID_STATE",
  "VALIDATION_ERROR",
  "AMOUNT_OUT_OF_RANGE",
  "DAILY_LIMIT",
  "MONTHLY_LIMIT",
  "FX_RATE_MISSING",
  "PRICING_DISABLED",
  "NOT_FOUND",
] as const;

/**
 * The words of refusals in the page's language (messages/*.json `customer.problems`): one per code the page words,
 * `OTHER` for any other code, `ERROR` for an answer without a message and `NETWORK` for a failed connection.
 */
export type ProblemWords = Record<(typeof CODES)[number] | "OTHER" | "ERROR" | "NETWORK", string>;

/** The words of a refusal's code: its own, or `OTHER` for a code the page does not word. */
export function problemText(code: string, words: ProblemWords): string {
  return (CODES as readonly string[]).includes(code) ? words[code as (typeof CODES)[number]] : words.OTHER;
}

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
 * @param words the refusals' words in the page's language ({@link ProblemWords})
 */
export function pageProblem(query: Record<string, string | string[] | undefined>, words: ProblemWords): PageProblem | null {
  const code = first(query.problem);
  if (!code) return null;
  const action = first(query.action);
  return {
    message: problemText(code, words),
    action: action && ACTIONS.includes(action) ? (action as ProblemAction) : null,
    amount: first(query.amount),
    currency: first(query.currency),
  };
}
