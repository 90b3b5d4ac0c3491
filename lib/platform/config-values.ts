// What server.mjs's configuration check answers (docs/operating.md "Environment"): the typed values of the variables
// it asks for and what each accepts. server.mjs loads it compiled by lib/platform/compiled.mjs, in its own process; the @sandpiper/sandbox
// package, which carries this module compiled to JavaScript, answers it in its own process
// (docs/guides/test-in-your-own-suite.md "How it works").
import { configOrExit, VARIABLES, type VariableName } from "./config";

/** The answer of one check: `values` by variable name (typed as lib/platform/config.ts parses them), `accepts` in words. */
export type CheckedValues = { values: Record<string, unknown>; accepts: Record<string, string | undefined> };

/**
 * Checks `env` with the one schema and picks the variables `names`.
 * @returns {@link CheckedValues}; a refused variable ends the process with exit code 1 after one line per variable
 *   on stderr (lib/platform/config.ts configOrExit).
 */
export function checkedValues(env: Record<string, string | undefined>, names: readonly string[]): CheckedValues {
  const config = configOrExit(env);
  const values = Object.fromEntries(names.map((name) => [name, config[name as VariableName]]));
  const accepts = Object.fromEntries(names.map((name) => [name, VARIABLES[name as VariableName]?.accepts]));
  return { values, accepts };
}
