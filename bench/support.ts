// Helpers shared by the benchmarks under bench/.
import fs from "node:fs";
import path from "node:path";

/** A numeric command-line option `--name <value>`, or `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/**
 * The benchmark database (BENCH_DATABASE_URL, default sandpiper_bench on 127.0.0.1), which the benchmark
 * recreates: refused unless local. Also sets DATABASE_URL for the project's code in this process.
 */
export function benchDatabaseUrl(): string {
  const url = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_bench";
  if (!["127.0.0.1", "localhost"].includes(new URL(url).hostname)) throw new Error("the benchmark recreates its database: local only");
  process.env.DATABASE_URL = url;
  return url;
}

/**
 * Recreates the benchmark database `url`, migrates and seeds it (as `npm run seed -- --json`).
 * @returns the seed's merchant id and full-scope key.
 */
export async function freshSeededDatabase(url: string): Promise<{ merchantId: string; keys: { full: string } }> {
  const { recreateDatabase } = await import("../test/support/global-setup");
  const { migrate, seed } = await import("../scripts/db.mjs");
  await recreateDatabase(url);
  await migrate(url);
  return JSON.parse(await seed(url, ["--json"])) as { merchantId: string; keys: { full: string } };
}

/**
 * The environment of a service a benchmark starts (`node server.mjs`): production, on 127.0.0.1 at `port`, on the
 * benchmark database, with the API's rate limits lifted so the load measures the service rather than its limits.
 * `extra` adds or overrides variables (NODE_ENV, LOG_LEVEL, SANDPIPER_WORKERS, ...). process.env is included.
 */
export function benchServiceEnv(port: number, databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_PER_KEY: "100000000",
    RATE_LIMIT_PER_IP: "100000000",
    ...extra,
  };
}

/** List filters without a date range, from the load benchmark's list scenario (bench/load.ts), for the CPU benchmarks. */
export const LIST_FILTERS = [
  "status=SUCCEEDED",
  "status=PENDING&currency=USD",
  "method=BANK_TRANSFER&direction=WITHDRAWAL",
  "currency=EUR",
  "status=FAILED&method=GATEWAY",
  "status=EXPIRED&currency=GBP&page=3",
  "direction=DEPOSIT&currency=AED",
];

/** The p-th percentile (nearest rank) of an ascending list. */
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Writes `section` (markdown starting with its "## " heading line) into docs/benchmarks.md: replaces the
 * section of the same heading, up to the next "## " heading, or appends it; other sections are kept.
 * @returns the path of the file written
 */
export function writeBenchmarkSection(section: string): string {
  const file = path.resolve(__dirname, "..", "docs", "benchmarks.md");
  const body = section.trimEnd().split("\n");
  if (!body[0].startsWith("## ")) throw new Error("a benchmark section starts with its '## ' heading");
  const lines = (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n").trimEnd().split("\n");
  const start = lines.findIndex((l) => l.trim() === body[0]);
  if (start < 0) lines.push("", ...body);
  else {
    const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
    lines.splice(start, (end < 0 ? lines.length : end) - start, ...body, ...(end < 0 ? [] : [""]));
  }
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/**
 * Runs a benchmark's `main`, which resolves with its markdown section (starting with its "## " heading): prints it,
 * writes it into docs/benchmarks.md with `--write` ({@link writeBenchmarkSection}), and exits 0; a thrown error is
 * printed and exits 1.
 */
export function runBenchmark(main: () => Promise<string>): void {
  main().then(
    (section) => {
      if (process.argv.includes("--write")) writeBenchmarkSection(section);
      console.log(section);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * Waits until the service at `base` answers its unknown-path probe (`/v1/health-check-probe`, 404), polling every 200 ms.
 * @throws Error "service did not start" after 60 s
 */
export async function waitForService(base: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; ;) {
    try {
      if ((await fetch(`${base}/v1/health-check-probe`)).status === 404) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("service did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
}
