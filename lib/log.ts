import pino from "pino";
import { config } from "@/lib/config";

/**
 * Structured JSON logs. Secrets and bearer links never reach a log line: the redact paths cover
 * authorization headers, API keys, callback secrets, passwords and checkout urls/tokens.
 */
export const log = pino({
  level: config().LOG_LEVEL,
  base: { service: "sandpiper" },
  redact: {
    paths: [
      "authorization",
      "*.authorization",
      "headers.authorization",
      "req.headers.authorization",
      "apiKey",
      "*.apiKey",
      "key",
      "secret",
      "*.secret",
      "callbackSecret",
      "*.callbackSecret",
      "password",
      "*.password",
      "url",
      "*.url",
      "token",
      "*.token",
      "checkoutUrl",
    ],
    censor: "[redacted]",
  },
});
