import pino from "pino";
import pretty from "pino-pretty";
import { config } from "@/lib/platform/config";
import { redactText, redactValue } from "@/lib/platform/redaction/redact";

/**
 * pino options: level, base fields, and the one redaction rule (lib/platform/redaction/redact.ts) applied to every line: the
 * fields (a member named like a secret is "[redacted]"; card numbers, API keys, bearer tokens and page links inside
 * any string, an error's message and stack included, are replaced) and the message.
 */
export const LOG_OPTIONS: pino.LoggerOptions = {
  level: config().LOG_LEVEL,
  base: { service: "sandpiper" },
  formatters: { log: (fields) => redactValue(fields) as Record<string, unknown> },
  hooks: {
    logMethod(args, method) {
      method.apply(this, args.map((arg) => (typeof arg === "string" ? redactText(arg) : arg)) as Parameters<typeof method>);
    },
  },
};
/**
 * Structured logs on stdout at LOG_LEVEL: JSON lines (LOG_FORMAT=json, the default, for a process manager), or
 * readable coloured lines written synchronously by pino-pretty (LOG_FORMAT=pretty, for a terminal; docs/operating.md
 * "Environment"). Secrets, card numbers and bearer links never reach a log line: every field and message passes
 * the one redaction rule (lib/platform/redaction/redact.ts; docs/operating.md "Secrets in logs and traces").
 */
export const log = config().LOG_FORMAT === "pretty" ? pino(LOG_OPTIONS, pretty({ sync: true, ignore: "pid,hostname,service" })) : pino(LOG_OPTIONS);
