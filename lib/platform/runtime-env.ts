/**
 * Reads an environment variable of the running process. `next build` folds `process.env.NODE_ENV` (also
 * through an alias of `process.env`) into the build-time value "production", so deployment-dependent
 * checks (CALLBACK_ALLOW_LOOPBACK refused under NODE_ENV=production) read it through this function,
 * whose variable name is a runtime value.
 * @param name the variable name, e.g. "NODE_ENV".
 * @returns its value, or undefined when unset.
 */
export function runtimeEnv(name: string): string | undefined {
  return process.env[name];
}
