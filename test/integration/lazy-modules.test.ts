import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../support/env";
import { startService, stopService } from "../support/global-setup";

// docs/architecture.md "Stack": the OpenTelemetry SDK and the Inngest SDK are loaded only when configured. A service
// is started with a preload that writes the module cache when the process exits (test/support/loaded-modules.mjs),
// asked what would load them (a /v1 request, the Inngest endpoint), and stopped; the same with both configured shows
// that the check sees them when they load.

const root = path.resolve(__dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-modules-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The packages of node_modules a service started with `env` has loaded by its exit, after a /v1 request and a call to /api/inngest. */
async function packagesLoaded(name: string, env: Record<string, string>): Promise<Set<string>> {
  const record = path.join(dir, name);
  const preload = pathToFileURL(path.join(root, "test", "support", "loaded-modules.mjs")).href;
  const svc = await startService({ DATABASE_URL: TEST_DATABASE_URL, NODE_OPTIONS: `--import ${preload}`, SANDPIPER_LOADED_MODULES: record, ...env });
  try {
    expect((await fetch(`${svc.url}/v1/payments`)).status).toBe(401);
    await fetch(`${svc.url}/api/inngest`);
  } finally {
    expect(await stopService(svc.child)).toBe(0);
  }
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(`${name}.`))
    .flatMap((f) => fs.readFileSync(path.join(dir, f), "utf8").split("\n"));
  expect(files.length).toBeGreaterThan(0);
  const packages = files.map((file) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file.slice(root.length))?.[1]).filter((p) => p !== undefined);
  return new Set(packages);
}

const sdk = (packages: Set<string>) => [...packages].filter((p) => p === "inngest" || (p.startsWith("@opentelemetry/") && p !== "@opentelemetry/api")).sort();

describe("optional SDKs are loaded only when configured", () => {
  it("without OTEL_EXPORTER_OTLP_ENDPOINT and Inngest keys: no OpenTelemetry SDK (the API only: Next.js asks for it) and no inngest", async () => {
    const packages = await packagesLoaded("off", { OTEL_EXPORTER_OTLP_ENDPOINT: "", INNGEST_DEV: "", INNGEST_EVENT_KEY: "", INNGEST_SIGNING_KEY: "" });
    expect(packages.has("next")).toBe(true);
    expect(sdk(packages)).toEqual([]);
  });

  it("with both configured: the OpenTelemetry SDK and inngest are loaded", async () => {
    // A collector address nothing listens on: the spans are dropped, which is all this start needs.
    const packages = await packagesLoaded("on", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", INNGEST_DEV: "1" });
    expect(sdk(packages)).toEqual(expect.arrayContaining(["@opentelemetry/sdk-trace", "@opentelemetry/instrumentation-pg", "inngest"]));
  });
});
