// The customer pages' weight and Lighthouse figures (docs/benchmarks.md "Customer pages: weight and Lighthouse"): the
// built service (`node server.mjs`, NODE_ENV=production) on a fresh seeded database; a store payment of the seeded
// merchant (its checkout READY) and an amount-entry checkout session; then, in the same build, the site's page with
// no client component (`/`, the floor) beside the two customer pages:
//   - JavaScript: every script the page loads in Chromium until the network is idle, each compressed with gzip
//     (level 6, what a server or CDN sends), summed; the goal is at most 10 KB above `/`;
//   - Lighthouse 12 (mobile form factor, its default simulated throttling; installed once into
//     ~/.cache/sandpiper/lighthouse-12.8.2 from the npm registry): `--runs` runs a page (default 3), the median
//     Performance score and Total Blocking Time; the goal is a Performance of at least 90.
// Bearer links are never printed: the pages are named, not their addresses.
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench_pages node --import tsx bench/customer-pages.ts [--runs 3] [--write]
import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../scripts/harness/chromium";
import { benchDatabaseUrl, benchServiceEnv, freshSeededDatabase, numberArg, runBenchmark, startNode, waitForStatus } from "./support";

const root = path.resolve(__dirname, "..");
const RUNS = numberArg("runs", 3);
const LIGHTHOUSE_VERSION = "12.8.2";
const CHROMIUM = CHROMIUM_PATH;
const CHROMIUM_FLAGS = CHROMIUM_ARGS;
const log = (s: string) => console.log(`[pages] ${new Date().toISOString().slice(11, 19)} ${s}`);

/** The Lighthouse command, installed once into the user's cache from the npm registry (never a dependency of the project). */
function lighthouseBin(): string {
  const dir = path.join(os.homedir(), ".cache", "sandpiper", `lighthouse-${LIGHTHOUSE_VERSION}`);
  const bin = path.join(dir, "node_modules", "lighthouse", "cli", "index.js");
  if (!fs.existsSync(bin)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "package.json"), '{"private":true}\n');
    execFileSync("npm", ["install", "--no-audit", "--no-fund", `lighthouse@${LIGHTHOUSE_VERSION}`], { cwd: dir, stdio: "inherit" });
  }
  return bin;
}

/** POST to the service's API with `key` and a fresh Idempotency-Key: the JSON answer, or an Error with the status. */
async function post(base: string, key: string, route: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The address of `link` (a customer page's absolute URL as the API gives it) on the service at `base`. */
const onService = (link: string, base: string) => `${base}${new URL(link).pathname}`;

/** A store payment of the seeded merchant whose checkout is READY: its customer page's address. */
async function storePage(base: string, key: string): Promise<string> {
  const payment = await post(base, key, "/v1/store-payments", {
    reference: `bench-${randomUUID().slice(0, 8)}`,
    amount: "250.00",
    currency: "USD",
    customer: { username: "layla.h", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", country: "AE" },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const read = (await (await fetch(`${base}/v1/payments/${payment.id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      checkout?: { state: string; url: string | null };
    };
    if (read.checkout?.state === "READY" && read.checkout.url) return onService(read.checkout.url, base);
    if (Date.now() > deadline) throw new Error(`the store payment's checkout is ${read.checkout?.state} after 60 s`);
    await new Promise((r) => setTimeout(r, 250)); // waits on purpose: the catalog match runs in the background
  }
}

/** An amount-entry checkout session of the seeded amount-entry merchant: its customer page's address. */
async function checkoutPage(base: string, key: string): Promise<string> {
  const session = (await post(base, key, "/v1/checkout-sessions", {
    reference: `bench-${randomUUID().slice(0, 8)}`,
    customer: { id: "cust-42", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", phone: "+971501234567" },
  })) as { customerCheckout: { url: string } };
  return onService(session.customerCheckout.url, base);
}

type Weight = { scripts: number; raw: number; gzip: number };

/** The scripts `url` loads in Chromium until the network is idle: how many, their bytes, their bytes gzipped (level 6). */
async function scriptWeight(url: string): Promise<Weight> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const bodies = new Map<string, Promise<Buffer>>();
    page.on("response", (response) => {
      if (response.request().resourceType() === "script" && !bodies.has(response.url())) bodies.set(response.url(), response.body());
    });
    const answer = await page.goto(url, { waitUntil: "networkidle" });
    if (answer?.status() !== 200) throw new Error(`the page answered ${answer?.status()}`);
    const all = await Promise.all(bodies.values());
    return {
      scripts: all.length,
      raw: all.reduce((sum, b) => sum + b.length, 0),
      gzip: all.reduce((sum, b) => sum + zlib.gzipSync(b, { level: 6 }).length, 0),
    };
  } finally {
    await browser.close();
  }
}

type Audit = { score: number; tbt: number; fcp: number; lcp: number };

/** One Lighthouse run of `url` (mobile, performance only): its Performance score (0-100) and timings in ms. */
function lighthouse(url: string): Audit {
  const run = spawnSync(
    process.execPath,
    [
      lighthouseBin(),
      url,
      "--only-categories=performance",
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      `--chrome-flags=--headless=new ${CHROMIUM_FLAGS.join(" ")}`,
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`lighthouse exited ${run.status}: ${run.stderr.slice(-2000)}`);
  const report = JSON.parse(run.stdout) as { categories: { performance: { score: number } }; audits: Record<string, { numericValue: number }> };
  return {
    score: Math.round(report.categories.performance.score * 100),
    tbt: report.audits["total-blocking-time"]!.numericValue,
    fcp: report.audits["first-contentful-paint"]!.numericValue,
    lcp: report.audits["largest-contentful-paint"]!.numericValue,
  };
}

/** The median of a list of numbers. */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

runBenchmark(async () => {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("build first: node scripts/build.mjs");
  const databaseUrl = benchDatabaseUrl();
  const loadBefore = os.loadavg();
  const seeded = await freshSeededDatabase(databaseUrl);
  const { freePort } = await import("../scripts/db.mjs");
  const port = await freePort();
  const service = startNode(["server.mjs"], benchServiceEnv(port, databaseUrl, { LOG_LEVEL: "warn" }) as Record<string, string>);
  process.once("exit", () => service.kill("SIGTERM"));
  const base = `http://127.0.0.1:${port}`;
  await waitForStatus(`${base}/healthz`, (s) => s === 200);
  // The first is the floor: the others are measured against it.
  const pages: [string, string][] = [
    ["the site's page `/` (no client component: the floor)", `${base}/`],
    ["store page, checkout ready", await storePage(base, seeded.keys.full)],
    ["amount-entry page, awaiting the amount", await checkoutPage(base, seeded.keys.amountEntry)],
  ];
  const rows: string[] = [];
  let floor = 0;
  const verdicts: string[] = [];
  for (const [index, [name, url]] of pages.entries()) {
    log(`${name}: scripts`);
    const weight = await scriptWeight(url);
    if (floor === 0) floor = weight.gzip;
    const audits: Audit[] = [];
    for (let i = 0; i < RUNS; i++) {
      log(`${name}: lighthouse run ${i + 1} of ${RUNS}`);
      audits.push(lighthouse(url));
    }
    const score = median(audits.map((a) => a.score));
    const above = weight.gzip - floor;
    rows.push(
      `| ${name} | ${weight.scripts} | ${kb(weight.raw)} | ${kb(weight.gzip)} | ${index === 0 ? "" : `${above >= 0 ? "+" : ""}${kb(above)}`} | ${audits.map((a) => a.score).join(", ")} (median ${score}) | ${Math.round(median(audits.map((a) => a.tbt)))} ms | ${Math.round(median(audits.map((a) => a.fcp)))} ms | ${Math.round(median(audits.map((a) => a.lcp)))} ms |`,
    );
    if (index > 0)
      verdicts.push(
        `- ${name}: ${kb(above)} of JavaScript above \`/\` (goal at most 10 KB): ${above <= 10 * 1024 ? "met" : "missed"}; Lighthouse Performance ${score} (goal at least 90): ${score >= 90 ? "met" : "missed"}.`,
      );
  }
  service.kill("SIGTERM");
  const cpu = os.cpus();
  return [
    "## Customer pages: weight and Lighthouse",
    "",
    `Command: \`node scripts/build.mjs && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench_pages node --import tsx bench/customer-pages.ts --runs ${RUNS} --write\` (source: \`bench/customer-pages.ts\`).`,
    "",
    `Machine: ${cpu.length} x ${cpu[0]?.model ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, shared with other work; Node ${process.version}; ${spawnSync(CHROMIUM, ["--version"], { encoding: "utf8" }).stdout.trim()}; Lighthouse ${LIGHTHOUSE_VERSION} (mobile, simulated throttling); load average (1/5/15 min) ${loadBefore.map((l) => l.toFixed(2)).join(" / ")} before, ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" / ")} after; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    "",
    "The built service (`node server.mjs`, NODE_ENV=production) on a fresh seeded database; each page in the same build. JavaScript: every script the page loads until the network is idle, in Chromium at 390x844, each gzipped (level 6) and summed. Lighthouse: the Performance category, one run after another.",
    "",
    "| page | scripts | JavaScript | gzipped | above `/` | Lighthouse Performance, each run | TBT (median) | FCP (median) | LCP (median) |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    ...verdicts,
    "",
  ].join("\n");
});
