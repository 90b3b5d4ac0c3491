import pino from "pino";
import pretty from "pino-pretty";
import { config } from "@/lib/config";

/** pino options: level, base fields and the redact paths of secrets and bearer links. */
const options: pino.LoggerOptions = {
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
      "previousCallbackSecret",
      "*.previousCallbackSecret",
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
};
/**
 * Structured logs on stdout at LOG_LEVEL: JSON lines (LOG_FORMAT=json, the default, for a process manager), or
 * readable coloured lines written synchronously by pino-pretty (LOG_FORMAT=pretty, for a terminal; docs/operating.md
 * "Environment"). Secrets and bearer links never reach a log line: the redact paths cover authorization headers,
 * API keys, callback secrets, passwords and checkout urls/tokens.
 */
export const log = config().LOG_FORMAT === "pretty" ? pino(options, pretty({ sync: true, ignore: "pid,hostname,service" })) : pino(options);
