import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ForwardReport } from "./forwarder";
import { Reporter } from "./reporter";

// What the listener prints of the service's answers to its forward records (docs/callbacks.md "Forwards on the
// service"), against a real HTTP server on loopback that answers as the service does.

const servers: http.Server[] = [];
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r)))));

async function serviceAnswering(status: number, body: unknown): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume().on("end", () => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body)));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const report = (attempt: number): ForwardReport => ({
  eventId: "6f1c2d3e-0000-4000-8000-000000000001",
  forwardId: "6f1c2d3e-0000-4000-8000-000000000002",
  cursor: "1",
  kind: "event",
  attempt,
  startedAt: new Date().toISOString(),
  durationMs: 3,
  statusCode: 200,
  error: null,
  forwardTo: "http://localhost:4000/hook",
  timestamp: "1764064800",
  signature: "0".repeat(64),
  responseSnippet: null,
  nextAttemptAt: null,
});

async function linesAfterReporting(apiUrl: string, reports: ForwardReport[]): Promise<string[]> {
  const lines: string[] = [];
  const reporter = new Reporter({ apiUrl, apiKey: "sk_sandbox_test", print: (l) => lines.push(l), intervalMs: 10 });
  for (const r of reports) reporter.add(r, "token");
  await reporter.flush();
  await reporter.close(1_000);
  return lines;
}

describe("the listener's reporter", () => {
  it("prints a refused batch with the error's code, its whole message and its whole requestId", async () => {
    const requestId = "0b1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a11";
    const message = `forwardToken: expired (records are taken for 70 minutes after the stream opened); send the forwardToken of the stream's ready message (sandpiper listen does). See GET /v1/requests/${requestId} or the console's Requests page.`;
    const url = await serviceAnswering(400, { error: { code: "VALIDATION_ERROR", message, requestId } });
    const lines = await linesAfterReporting(url, [report(1)]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `the service did not record 1 forward attempts (400 VALIDATION_ERROR: ${message.replace(/\.$/, "")}, requestId ${requestId}); forwarding goes on`,
    );
  });

  it("prints the attempts the service refused of a recorded batch: how many, and the first one's reason", async () => {
    const url = await serviceAnswering(200, {
      recorded: 1,
      duplicates: 0,
      unknownEvents: [],
      refused: [
        { index: 1, forwardId: "6f1c2d3e-0000-4000-8000-000000000002", attempt: 2, reason: "startedAt lies after now or the forward token's end (x)" },
        { index: 2, forwardId: "6f1c2d3e-0000-4000-8000-000000000002", attempt: 3, reason: "startedAt lies after now or the forward token's end (x)" },
      ],
    });
    const lines = await linesAfterReporting(url, [report(1), report(2), report(3)]);
    expect(lines).toEqual([
      expect.stringMatching(
        /  the service did not record 2 of 3 forward attempts: attempt 2 of forward 6f1c2d3e-0000-4000-8000-000000000002: startedAt lies after now or the forward token's end \(x\) \(and 1 more\); forwarding goes on$/,
      ),
    ]);
  });

  it("prints nothing when everything was recorded", async () => {
    const url = await serviceAnswering(200, { recorded: 1, duplicates: 0, unknownEvents: [], refused: [] });
    expect(await linesAfterReporting(url, [report(1)])).toEqual([]);
  });
});
