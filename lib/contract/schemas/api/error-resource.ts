import { z } from "zod";
import { API_ERROR_CODES } from "@/lib/contract/errors";

/** Every error code of the contract (lib/contract/errors.ts is the one code -> status table). */
export const ErrorCode = z.enum(API_ERROR_CODES as [string, ...string[]]);

/** docs/api.md "Errors": `{ error: { code, message, requestId } }`; keep requestId for support. */
export const ErrorEnvelope = z
  .strictObject({
    error: z
      .strictObject({
        code: ErrorCode.describe("What went wrong; x-error-codes in this document says what each code means and what to do."),
        message: z.string().min(1).describe("human-readable, client-safe; never a stack trace"),
        requestId: z.uuid().describe("equals the X-Request-Id response header"),
      })
      .describe("The error."),
  })
  .describe("The error envelope of every non-2xx response under /v1.");
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
