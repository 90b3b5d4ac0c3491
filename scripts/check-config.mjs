// The configuration check of server.mjs, run as a child process (`node --import tsx scripts/check-config.mjs NAME...`):
// lib/config.ts is TypeScript, and loading tsx into the serving process would put every module Next.js loads through
// its loader (about 140 MiB more resident memory, docs/benchmarks.md "API load"). The child parses the environment
// it was given with the one schema (docs/operating.md "Environment"). A refused variable: one line per variable on stderr
// (`Sandpiper refuses to start: NAME: got "value"; expected ...`, a secret's value never printed) and exit code 1.
// Otherwise stdout is one JSON object: `values` (the typed values of the NAMEs asked for) and `accepts` (what each
// of them accepts, for messages).
// A check that cannot run at all (the schema does not load) says so in one line, so it is not taken for a refusal.
try {
  const { checkedValues } = await import("../lib/config-values.ts");
  process.stdout.write(JSON.stringify(checkedValues(process.env, process.argv.slice(2))));
} catch (error) {
  console.error(`Sandpiper could not check its configuration: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
