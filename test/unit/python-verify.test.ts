import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyCallback } from "../../clients/cli/src/verify";

// The Python package's verify_callback (clients/python/src/sandpiper/verify.py) against the Node.js verifyCallback
// (clients/cli/src/verify.ts), both following docs/guides/receive-and-verify-callbacks.md: for each request below,
// python3 accepts exactly what Node.js accepts, and refuses the rest for the same reason.

const root = path.resolve(__dirname, "../..");
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const NOW = 1_795_318_189;

type Case = { name: string; body: string; headers: Record<string, string>; toleranceSeconds?: number };

const sign = (timestamp: string, body: string, secret = SECRET) => createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
const body = JSON.stringify({ id: "1f0c6b8e-0000-4000-8000-000000000001", type: "payment.succeeded", data: { id: "p1", reference: "order-ä" } });
const headers = (timestamp: number | string, over: Record<string, string> = {}, text = body) => ({
  "X-Service-Event-Id": "1f0c6b8e-0000-4000-8000-000000000001",
  "X-Service-Timestamp": String(timestamp),
  "X-Service-Signature": sign(String(timestamp), text),
  ...over,
});

const CASES: Case[] = [
  { name: "genuine", body, headers: headers(NOW) },
  { name: "genuine, lowercase header names", body, headers: Object.fromEntries(Object.entries(headers(NOW)).map(([k, v]) => [k.toLowerCase(), v])) },
  { name: "300 s early passes", body, headers: headers(NOW - 300) },
  { name: "301 s late fails", body, headers: headers(NOW + 301) },
  { name: "tolerance 10: 11 s fails", body, headers: headers(NOW - 11), toleranceSeconds: 10 },
  { name: "altered body", body: body.replace("order", "other"), headers: headers(NOW) },
  { name: "another secret", body, headers: headers(NOW, { "X-Service-Signature": sign(String(NOW), body, "whsec_other") }) },
  { name: "uppercase hex", body, headers: headers(NOW, { "X-Service-Signature": sign(String(NOW), body).toUpperCase() }) },
  { name: "missing signature", body, headers: headers(NOW, { "X-Service-Signature": "" }) },
  { name: "timestamp in milliseconds", body, headers: headers(`${NOW}000`) },
  { name: "event id differs", body, headers: headers(NOW, { "X-Service-Event-Id": "another" }) },
  { name: "not JSON", body: "not json", headers: headers(NOW, {}, "not json") },
  { name: "JSON without id", body: "[1]", headers: headers(NOW, {}, "[1]") },
];

/** What python3 answers for each case: "ok <event id>" or the refusal's reason. */
function pythonVerdicts(cases: Case[]): string[] {
  const script = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("verify", sys.argv[1])
verify = importlib.util.module_from_spec(spec)
spec.loader.exec_module(verify)
for case in json.load(sys.stdin):
    try:
        event = verify.verify_callback(case["body"].encode("utf-8"), case["headers"], case["secret"], now=case["now"], tolerance_seconds=case["tolerance"])
        print("ok " + event["id"])
    except verify.InvalidCallback as refused:
        print(refused.reason)
`;
  const input = JSON.stringify(cases.map((c) => ({ ...c, secret: SECRET, now: NOW, tolerance: c.toleranceSeconds ?? 300 })));
  const run = spawnSync("python3", ["-c", script, path.join(root, "clients/python/src/sandpiper/verify.py")], { input, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim().split("\n");
}

describe("the Python package's verify_callback", () => {
  it("accepts and refuses what the Node.js verifyCallback does, for the same reasons", () => {
    const node = CASES.map((c) => {
      const result = verifyCallback(c.body, c.headers, SECRET, { now: NOW * 1000, toleranceSeconds: c.toleranceSeconds ?? 300 });
      return result.ok ? `ok ${result.eventId}` : result.reason;
    });
    expect(node.slice(0, 3)).toEqual(Array(3).fill("ok 1f0c6b8e-0000-4000-8000-000000000001"));
    expect(new Set(node.slice(3)).has("ok 1f0c6b8e-0000-4000-8000-000000000001")).toBe(false);
    const python = pythonVerdicts(CASES);
    expect(Object.fromEntries(CASES.map((c, i) => [c.name, python[i]]))).toEqual(Object.fromEntries(CASES.map((c, i) => [c.name, node[i]])));
  });
});
