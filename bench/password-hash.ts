// The console's password hashing (docs/benchmarks.md "Password hashing"; docs/decisions/0200-password-hashing-in-webassembly.md):
// the time of one hash and one verification with the OWASP parameters (lib/domain/users/password-hash.ts, hash-wasm's
// WebAssembly argon2id), and the longest pause of the event loop during them. With `--native <folder>`, a folder
// where `npm install @node-rs/argon2@2.2.1` was run (the native library the service used before), the same figures
// for it, and a check that each verifies the other's hashes. Not a test: it prints figures.
//   node --import tsx bench/password-hash.ts [--rounds 20] [--native /tmp/argon2-native]
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { hashPassword, PASSWORD_HASH_PARAMETERS, verifyPassword } from "@/lib/domain/users/password-hash";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "20" }, native: { type: "string" } } });
const rounds = Number(values.rounds);

type Impl = { name: string; hash: (p: string) => Promise<string>; verify: (h: string, p: string) => Promise<boolean> };
const impls: Impl[] = [{ name: "hash-wasm 4.13.0 (WebAssembly)", hash: hashPassword, verify: verifyPassword }];
if (values.native) {
  const native = createRequire(path.join(path.resolve(values.native), "index.js"))("@node-rs/argon2") as {
    hash: (p: string, o: object) => Promise<string>;
    verify: (h: string, p: string) => Promise<boolean>;
  };
  const { memorySize: memoryCost, iterations: timeCost, parallelism } = PASSWORD_HASH_PARAMETERS;
  impls.push({
    name: "@node-rs/argon2 2.2.1 (native)",
    hash: (p) => native.hash(p, { algorithm: 2, memoryCost, timeCost, parallelism }),
    verify: native.verify,
  });
}

/**
 * Median, 95th percentile and maximum of `rounds` runs (ms), and the event loop's longest pause meanwhile (ms): a 1 ms
 * timer records the gaps between its ticks, and each run waits 5 ms after the one before so the timer ticks between.
 */
async function measure(run: () => Promise<unknown>) {
  await run(); // the first call compiles the WebAssembly module
  const times: number[] = [];
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  for (let i = 0; i < rounds; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(ticker);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return `${at(0.5).toFixed(0)} | ${at(0.95).toFixed(0)} | ${at(1).toFixed(0)} | ${longest.toFixed(0)}`;
}

/** Prints the table and the cross-checks. */
async function main() {
  console.log(
    `Node.js ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}, ${rounds} rounds`,
  );
  console.log("| library | operation | median (ms) | p95 (ms) | max (ms) | longest event-loop pause (ms) |\n|---|---|---|---|---|---|");
  const hashes = new Map<string, string>();
  for (const impl of impls) {
    const stored = await impl.hash("correct horse battery staple");
    hashes.set(impl.name, stored);
    console.log(`| ${impl.name} | hash | ${await measure(() => impl.hash("correct horse battery staple"))} |`);
    console.log(`| ${impl.name} | verify | ${await measure(() => impl.verify(stored, "correct horse battery staple"))} |`);
  }
  for (const impl of impls) {
    for (const [maker, stored] of hashes) {
      const right = await impl.verify(stored, "correct horse battery staple");
      const wrong = await impl.verify(stored, "correct horse battery stapler");
      console.log(`${impl.name} verifies a hash of ${maker}: ${right}; refuses a wrong password: ${!wrong}`);
    }
  }
}

void main();
