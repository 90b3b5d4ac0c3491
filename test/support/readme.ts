// Code blocks of the README and the guides for tests that run them as written (readme-snippets.test.ts, cli.test.ts,
// client.test.ts, request-log.test.ts, standard-webhooks.test.ts): a guide that drifts from working code fails there.
// The function lives in scripts/harness/doc-block.ts, which the benchmarks share.
export { docBlock } from "../../scripts/harness/doc-block";
