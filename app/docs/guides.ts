// The task guides of the repository (README "Guides"), listed on /docs and the front page. The service does not
// serve Markdown: each entry names the file in the repository (a clone, or its page on the code host).

/** One guide: its file from the repository root, its title (the file's first heading) and who reads it for what. */
export type Guide = { file: string; title: string; purpose: string };

/** Every file of docs/guides/, in reading order (test/unit/doc-links.test.ts keeps it equal to the folder). */
export const GUIDES: readonly Guide[] = [
  {
    file: "docs/guides/accept-a-payment.md",
    title: "Accept a payment",
    purpose: "create, read, conclude and list a payment; a withdrawal and its approval; the request log",
  },
  {
    file: "docs/guides/receive-and-verify-callbacks.md",
    title: "Receiving callbacks",
    purpose: "verify signed callbacks, process each once, receive them on your machine with sandpiper listen, events",
  },
  {
    file: "docs/guides/test-every-path.md",
    title: "Testing your integration",
    purpose: "declined, expired and late payments and callback retries in seconds: test helpers, sandbox clock, scenario rules",
  },
  {
    file: "docs/guides/test-in-your-own-suite.md",
    title: "Test against Sandpiper in your own test suite",
    purpose: "a sandbox per test file from one npm package, offline, in seconds: startSandpiper(), reset(), the sandpiper-sandbox command",
  },
  { file: "docs/guides/store-checkout.md", title: "Store checkout", purpose: "a fixed-amount payment through the sandbox store's checkout page" },
  { file: "docs/guides/amount-entry-checkout.md", title: "Amount-entry checkout", purpose: "the customer chooses the amount on a hosted page" },
  { file: "docs/guides/command-line.md", title: "The `sandpiper` command", purpose: "install the command line; trigger, list and resend events" },
  { file: "docs/guides/typescript-client.md", title: "Use the TypeScript client", purpose: "the walk-throughs with the typed client" },
  { file: "docs/guides/console-for-operators.md", title: "The console", purpose: "every console page, and how the charts read" },
  {
    file: "docs/guides/operate-sandpiper.md",
    title: "Run Sandpiper",
    purpose: "process managers, the seeded sandbox, several processes, security headers, background jobs",
  },
  { file: "docs/guides/work-on-sandpiper.md", title: "Work on Sandpiper", purpose: "develop the service itself, run its tests, find your way in the code" },
];
