import { describe, expect, it } from "vitest";
import { clockDuration, resolveOptions } from "../../clients/sandbox/src/index";

// startSandpiper's options (docs/guides/test-in-your-own-suite.md "Options"): the defaults, and a clear TypeError
// before anything starts for an option it does not know or a value it does not take.
describe("startSandpiper options", () => {
  it("defaults: a free port, fast retries on, no rules, warn, no callback address", () => {
    expect(resolveOptions(undefined)).toEqual({
      callbackUrl: null,
      port: 0,
      scenarioRules: "none",
      fastRetries: true,
      logLevel: "warn",
      startTimeoutMs: 60_000,
    });
    expect(resolveOptions({ callbackUrl: "http://127.0.0.1:4000/cb", port: 4100, scenarioRules: "standard", fastRetries: false, logLevel: "silent" })).toEqual({
      callbackUrl: "http://127.0.0.1:4000/cb",
      port: 4100,
      scenarioRules: "standard",
      fastRetries: false,
      logLevel: "silent",
      startTimeoutMs: 60_000,
    });
  });

  it.each([
    [{ callbackURL: "http://x" }, /unknown option "callbackURL"; the options are callbackUrl, port, scenarioRules, fastRetries, logLevel/],
    [{ a: 1, b: 2 }, /unknown options "a", "b"/],
    [{ port: 70000 }, /port must be a whole number from 0 to 65535, got 70000/],
    [{ port: "3000" }, /port must be a whole number/],
    [{ callbackUrl: "ftp://127.0.0.1/x" }, /callbackUrl must be an http or https URL/],
    [{ scenarioRules: "all" }, /scenarioRules must be "standard" or "none", got "all"/],
    [{ fastRetries: "yes" }, /fastRetries must be true or false/],
    [{ logLevel: "verbose" }, /logLevel must be one of fatal, error, warn, info, debug, trace, silent/],
    [[], /options must be an object/],
  ])("refuses %j", (options, message) => {
    expect(() => resolveOptions(options)).toThrow(TypeError);
    expect(() => resolveOptions(options)).toThrow(message);
  });

  it("clock durations: strings as they are, milliseconds as whole seconds", () => {
    expect(clockDuration("72h")).toBe("72h");
    expect(clockDuration(7_200_000)).toBe("7200s");
    for (const bad of [1500, 0, -1000, 1.5]) expect(() => clockDuration(bad)).toThrow(/whole seconds/);
  });
});
