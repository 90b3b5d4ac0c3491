import fs from "node:fs";
import path from "node:path";
import { docBlock } from "./doc-block";

// A merchant's vitest suite as docs/guides/test-in-your-own-suite.md "One sandbox for the run in vitest" writes it:
// the guide's vitest.config.mjs and sandpiper.setup.mjs as written (one sandbox for the whole run, its url and
// sandboxToken handed to the test files with provide/inject), and test files made from one template in which every
// test makes its own merchant with newMerchant, with a callbackUrl to a receiver its file starts on port 0, creates a
// payment, concludes it with the test helper (POST /v1/sandbox/payments/{id}/complete, docs/guides/test-every-path.md
// "Test helpers"), waits for the signed callback and verifies it with the merchant's callbackSecret. Run long by
// bench/sandbox-suite.ts (docs/benchmarks.md "A suite of 50 files"), short by test/integration/sandbox-merchants.test.ts.

const GUIDE = "docs/guides/test-in-your-own-suite.md";

/** The environment variable naming a folder where each test file writes its tests' phase times (a JSON file each). */
export const SUITE_TIMINGS_ENV = "SANDPIPER_SUITE_TIMINGS";

/**
 * The phases a test of the suite times, in order: milliseconds each, and `<phase>SandboxCpu` the sandbox process's CPU
 * milliseconds meanwhile (clock ticks of 10 ms), in the JSON files of {@link SUITE_TIMINGS_ENV}.
 */
export const SUITE_PHASES = ["merchant", "create", "complete", "callback"] as const;

/** One test file of the suite: `tests` tests, each with its own merchant; phase times written when the variable is set. */
function testFile(index: number, tests: number): string {
  return `// suite-${index}.test.mjs - ${tests} tests, each with a merchant of its own and a signed callback to this file's receiver
import { createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { newMerchant } from "@sandpiper/sandbox";

// This file's receiver: what each callback path got.
const received = new Map();
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    received.set(req.url, [...(received.get(req.url) ?? []), { headers: req.headers, body }]);
    res.end("ok");
  });
});

/** Standard Webhooks: HMAC-SHA256 over "id.timestamp.body" with the base64 key after "whsec_". */
function verified(secret, { headers, body }) {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signed = \`\${headers["webhook-id"]}.\${headers["webhook-timestamp"]}.\${body}\`;
  const expected = \`v1,\${createHmac("sha256", key).update(signed).digest("base64")}\`;
  return headers["webhook-signature"].split(" ").includes(expected);
}

// A benchmark's run (${SUITE_TIMINGS_ENV} set): each phase's time, and the CPU time the sandbox's process spent
// meanwhile (Linux /proc; it is this project's sandbox-child.mjs; meaningful with one worker, where phases do not overlap).
const timingsDir = process.env.${SUITE_TIMINGS_ENV};
const child = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "node_modules", "@sandpiper", "sandbox", "dist", "app", "sandbox-child.mjs");
const cmdline = (p) => { try { return fs.readFileSync(\`/proc/\${p}/cmdline\`, "utf8"); } catch { return ""; } };
const sandboxPid = timingsDir ? fs.readdirSync("/proc").find((p) => /^\\d+$/.test(p) && cmdline(p).includes(child)) : undefined;
const sandboxCpuMs = () => {
  if (!sandboxPid) return 0;
  const stat = fs.readFileSync(\`/proc/\${sandboxPid}/stat\`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
};
const timings = [];
beforeAll(() => new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve)));
afterAll(() => {
  receiver.close();
  if (timingsDir) fs.writeFileSync(path.join(timingsDir, "suite-${index}.json"), JSON.stringify(timings));
});

for (let i = 0; i < ${tests}; i++) {
  test(\`test \${i}: its own merchant, a concluded payment, a verified callback\`, async () => {
    const lap = { start: performance.now(), cpu: sandboxCpuMs() };
    const mark = (name) => {
      const [now, cpu] = [performance.now(), sandboxCpuMs()];
      lap[name] = now - lap.start;
      lap[\`\${name}SandboxCpu\`] = cpu - lap.cpu;
      Object.assign(lap, { start: now, cpu });
    };
    const route = \`/callbacks/\${i}\`;
    const merchant = await newMerchant(inject("sandpiper"), { callbackUrl: \`http://127.0.0.1:\${receiver.address().port}\${route}\` });
    mark("merchant");
    const payment = await merchant.client.createPayment({
      body: { reference: "order-1", amount: "10.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" },
    });
    mark("create");
    const done = await merchant.client.completeSandboxPayment({ params: { path: { id: payment.id } }, body: { outcome: "SUCCEEDED" } });
    expect(done.status).toBe("SUCCEEDED");
    mark("complete");
    await expect.poll(() => received.get(route)?.length ?? 0, { timeout: 30_000, interval: 20 }).toBe(1);
    mark("callback");
    const [callback] = received.get(route);
    expect(verified(merchant.callbackSecret, callback)).toBe(true);
    expect(JSON.parse(callback.body)).toMatchObject({ type: "payment.succeeded", data: { id: payment.id, merchantId: merchant.merchantId } });
    delete lap.start;
    delete lap.cpu;
    timings.push(lap);
  }, 30_000); // the sandbox's first merchant loads its route: seconds on a busy machine, above vitest's 5 s
}
`;
}

/**
 * Writes the suite into `dir` (created when missing): the guide's vitest.config.mjs and sandpiper.setup.mjs, and
 * `files` test files (suite-0.test.mjs ...) of `tests` tests each. The folder's project must have
 * `@sandpiper/sandbox` and vitest installed.
 * @returns the test files' names
 * @throws Error when the guide no longer has the two blocks
 */
export function writeSandboxSuite(dir: string, { files, tests }: { files: number; tests: number }): string[] {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of ["vitest.config.mjs", "sandpiper.setup.mjs"]) fs.writeFileSync(path.join(dir, name), docBlock(GUIDE, `// ${name}`));
  const names = Array.from({ length: files }, (_, i) => `suite-${i}.test.mjs`);
  names.forEach((name, i) => fs.writeFileSync(path.join(dir, name), testFile(i, tests)));
  return names;
}
