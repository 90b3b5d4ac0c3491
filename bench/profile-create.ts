// CPU profile of the service under the create scenario: `node --import tsx bench/profile-create.ts [--duration=15] [--scenario=list|read]`.
// Starts the built service (`server.mjs`, NODE_ENV=production) on the load benchmark's database (BENCH_DATABASE_URL,
// default sandpiper_bench_7, with 1,000,000 payments as bench/load.ts prepares it), sends distinct creates (or the
// scenario's requests) at 32 connections for a 3 s warm-up and then the duration, profiling the service's CPU during
// the duration only (bench/cpu-profile-preload.mjs: start-up and warm-up left out), and prints where the CPU went:
// self time by package or project folder, and the 25 functions with the most self time. The .cpuprofile file stays
// in tmp/profiles/ for Chrome DevTools or speedscope.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { LIST_FILTERS, benchServiceEnv, waitForService } from "./support";

const root = path.resolve(__dirname, "..");
const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const DURATION = Number(arg("duration", "15"));
const SCENARIO = arg("scenario", "create"); // or "list": the load benchmark's filtered list pages; or "read": reads by id
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_bench_7";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
type Profile = { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

/** Where a frame's code lives: a package name, a project folder, node internals or (program)/(idle)/(gc). */
function area(url: string, fn: string): string {
  if (!url) return fn.startsWith("(") ? fn : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith("node:")) return "node internals";
  const rel = url.replace(/^file:\/\//, "").replace(`${root}/`, "");
  if (rel.startsWith(".next/")) return ".next (compiled app)";
  return rel.split("/").slice(0, 2).join("/");
}

/** Self time per area and per function from a .cpuprofile, in ms. */
export function summarize(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id)!;
    const a = area(node.callFrame.url, node.callFrame.functionName);
    areas.set(a, (areas.get(a) ?? 0) + ms);
    const name = `${node.callFrame.functionName || "(anonymous)"} ${a}:${node.callFrame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    total += ms;
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((x, y) => y[1] - x[1]).slice(0, n);
  return { total, areas: top(areas, 20), functions: top(functions, 25) };
}

async function main() {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no production build: run `node scripts/build.mjs` first");
  process.env.DATABASE_URL = DATABASE_URL;
  const { readyDatabase, prepareDataset } = await import("./dataset");
  await readyDatabase(DATABASE_URL, false);
  const { key, sampleIds } = await prepareDataset(DATABASE_URL, 1_000_000, (line: string) => console.log(`[profile] ${line}`));
  const dir = path.join(root, "tmp", "profiles");
  fs.mkdirSync(dir, { recursive: true });
  const file = `create-${SCENARIO}-${Date.now()}.cpuprofile`;
  const { freePort } = await import("../scripts/db.mjs");
  const port = await freePort();
  const service = spawn(process.execPath, ["--max-old-space-size=256", "--import", "./bench/cpu-profile-preload.mjs", "server.mjs"], {
    cwd: root,
    env: benchServiceEnv(port, DATABASE_URL, { LOG_LEVEL: "info", CPU_PROFILE_FILE: path.join(dir, file) }),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForService(base);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const create = (req: autocannon.Request) => {
    const id = randomUUID();
    return {
      ...req,
      headers: { ...headers, "idempotency-key": `prof-${id}` },
      body: JSON.stringify({ reference: `prof-${id}`, amount: "1123.52", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" }),
    };
  };
  let n = 0;
  const list = (req: autocannon.Request) => ({ ...req, headers, path: `/v1/payments?${LIST_FILTERS[n++ % LIST_FILTERS.length]}` });
  const read = (req: autocannon.Request) => ({ ...req, headers, path: `/v1/payments/${sampleIds[n++ % sampleIds.length]}` });
  const requests: Record<string, autocannon.Request> = {
    create: { method: "POST", path: "/v1/payments", setupRequest: create },
    list: { method: "GET", path: "/v1/payments", setupRequest: list },
    read: { method: "GET", path: "/v1/payments", setupRequest: read },
  };
  const request = requests[SCENARIO];
  if (!request) throw new Error(`--scenario=${SCENARIO}: use create, list or read`);
  await autocannon({ url: base, connections: 32, duration: 3, requests: [request] });
  service.kill("SIGUSR2"); // starts the profile
  const result = await autocannon({ url: base, connections: 32, duration: DURATION, requests: [request] });
  service.kill("SIGUSR2"); // stops it and writes the file
  for (const deadline = Date.now() + 30_000; !fs.existsSync(path.join(dir, file));) {
    if (Date.now() > deadline) throw new Error("no profile written");
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 500)); // the file is written in one call; let it finish
  const exited = new Promise((r) => service.once("exit", r));
  service.kill("SIGTERM");
  await exited;
  const { total, areas, functions } = summarize(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Profile);
  const creates = result.requests.total;
  console.log(
    `profile: tmp/profiles/${file}; ${creates} ${SCENARIO === "create" ? "creates" : `${SCENARIO} requests`} (${result.non2xx} non-2xx) in ${DURATION} s, ${result.requests.average} req/s, p50 ${result.latency.p50} ms`,
  );
  console.log(`sampled ${total.toFixed(0)} ms = ${(total / creates).toFixed(2)} ms per request (idle included below)\n`);
  console.log("| where | self ms | share | ms per request |\n|---|---|---|---|");
  for (const [a, ms] of areas) console.log(`| ${a} | ${ms.toFixed(0)} | ${((ms / total) * 100).toFixed(1)}% | ${(ms / creates).toFixed(3)} |`);
  console.log("\n| function | self ms | share |\n|---|---|---|");
  for (const [f, ms] of functions) console.log(`| ${f} | ${ms.toFixed(0)} | ${((ms / total) * 100).toFixed(1)}% |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
