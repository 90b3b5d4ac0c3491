// The types of @sandpiper/cli's module (dist/main.js, the bundle of clients/cli/src/main.ts); test/unit/client-types.test-d.ts
// checks them against the source.

/** The usage text `sandpiper --help` prints. */
export declare const MAIN_HELP: string;

/**
 * Runs the `sandpiper` command line `argv` (without `node` and the script, e.g. `["events", "list"]`) as the command
 * does (docs/callbacks.md "The sandpiper command"); resolves to the exit code: 0 done, 1 the service refused or
 * failed, 2 a usage error.
 */
export declare function main(argv: string[]): Promise<number>;
