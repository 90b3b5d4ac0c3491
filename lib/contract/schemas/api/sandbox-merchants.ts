import { z } from "zod";

// POST /v1/sandbox/merchants, the route of the @sandpiper/sandbox package only (docs/guides/test-in-your-own-suite.md
// "A merchant per test"; docs/decisions/0198-a-merchant-per-test-over-a-sandbox-token.md): not part of the merchant API
// or its OpenAPI document, since a service started any other way answers it 404.

/** Body: the options of startSandpiper() that belong to a merchant, each optional; any other member is refused. */
export const MakeSandboxMerchant = z
  .strictObject({
    callbackUrl: z
      .string()
      .max(2048)
      .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), { message: "must be an http or https URL" })
      .optional()
      .describe("The merchant's callback address; a receiver on this machine (http://127.0.0.1:...) is allowed in the sandbox. Default: none."),
    scenarioRules: z.enum(["standard", "none"]).optional().describe('"standard" switches the standard scenario rules on; default "none".'),
    fastRetries: z.boolean().optional().describe("Fast callback retries (the schedule divided by 60); default true."),
  })
  .describe("What the new merchant starts with.");

/** 201 answer: the new merchant and the secrets shown this once. */
export const SandboxMerchant = z.strictObject({
  merchantId: z.string().describe("The new merchant's id."),
  apiKey: z.string().describe("Its key with every scope (keys.full)."),
  keys: z.strictObject({ full: z.string(), readOnly: z.string() }).describe("Its keys: full (every scope) and readOnly (payments:read)."),
  callbackSecret: z.string().nullable().describe("The whsec_... secret its callbacks are signed with; null without a callbackUrl."),
});
