import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { listenerSecret as serviceListenerSecret } from "@/lib/contract/callbacks/listener-secret";
import { signCallback } from "@/lib/contract/callbacks/signing";
import { createClient, listenerSecret, requiresIdempotencyKey, SandpiperError, verifyCallback } from "../../clients/typescript/src/index";
import { generate } from "../../clients/typescript/scripts/generate.mjs";
import { generatedFrom } from "../../clients/python/scripts/generate.mjs";
import { baseUrl, db, depositBody, eventually, LOG_POINTER, newMerchant, type TestMerchant } from "../support/fixtures";
import { startService, stopService, type StartedService } from "../support/global-setup";
import { TEST_DATABASE_URL } from "../support/env";
import { implementedOperations, merchantFor, recordFor, validBody } from "../support/operations";
import { startReceiver } from "../support/receiver";
import { docBlock } from "../support/readme";
import { present } from "../../scripts/harness/present";

// The TypeScript client (clients/typescript, docs/client.md) against the built service over real HTTP: its types are
// what openapi-typescript makes of the running service's document; every operation once; a 429 retried to success
// with one record; pages over 1,000 payments; typed errors; callbacks checked like the service signs them; and the
// package installed into another project without the registry, running the walk-throughs of docs/guides/typescript-client.md as written.

const root = path.resolve(__dirname, "../..");
const clientDir = path.join(root, "clients/typescript");
const work = path.join(root, "tmp", `client-${process.pid}`);
const services: StartedService[] = [];
afterAll(async () => {
  for (const s of services) await stopService(s.child);
  fs.rmSync(work, { recursive: true, force: true });
});

/** The global fetch with the merchant's source IP (the suite's service trusts loopback as a proxy). */
const fromIp =
  (ip: string): typeof fetch =>
  (input, init) => {
    const request = new Request(input, init);
    request.headers.set("x-forwarded-for", ip);
    return fetch(request);
  };
const clientOf = (m: TestMerchant, base = baseUrl()) => createClient({ baseUrl: base, apiKey: m.key, fetch: fromIp(m.ip), baseDelayMs: 50 });

describe("the client's types", () => {
  it("are what openapi-typescript makes of the running service's document (regenerate and compare)", async () => {
    const doc = await (await fetch(`${baseUrl()}/v1/openapi.json`)).json();
    const files = await generate(doc);
    for (const [name, text] of Object.entries(files)) {
      expect(
        fs.readFileSync(path.join(clientDir, "src", name), "utf8"),
        `clients/typescript/src/${name} is stale: run npm run generate in clients/typescript against a running service`,
      ).toBe(text);
    }
  });
});

describe("the Python package's typed client", () => {
  it("was generated from the running service's document (the hash its generation recorded)", async () => {
    const doc = await (await fetch(`${baseUrl()}/v1/openapi.json`)).json();
    expect(
      fs.readFileSync(path.resolve(__dirname, "../../clients/python/src/sandpiper/api_client/GENERATED_FROM"), "utf8"),
      "clients/python/src/sandpiper/api_client is stale: run node clients/python/scripts/generate.mjs against a running service (needs openapi-python-client)",
    ).toBe(generatedFrom(doc));
  });
});

describe("the client over real HTTP", () => {
  it("sends every operation once; an Idempotency-Key is made exactly where the document requires one", async () => {
    for (const op of implementedOperations) {
      expect(requiresIdempotencyKey(op.method, op.path), op.operationId).toBe(op.idempotent);
      const m = await merchantFor(op);
      const id = await recordFor(op, m);
      const client = clientOf(m);
      const body = op.body ? await validBody(op, m.key) : undefined;
      const init = { params: { path: id === undefined ? undefined : { id } }, ...(body ? { body } : {}) };
      const { response, error } = await (
        client.raw.request as (method: string, url: string, init: unknown) => Promise<{ response: Response; error?: unknown }>
      )(op.method.toLowerCase(), op.path, init);
      expect(response.status, `${op.operationId}: ${JSON.stringify(error)}`).toBe(op.success.status);
      const requestId = response.headers.get("x-request-id")!;
      const logged = await eventually(async () => {
        const res = await client.raw.GET("/v1/requests/{id}", { params: { path: { id: requestId } } });
        return res.data;
      });
      if (op.idempotent) expect(logged.idempotencyKey, op.operationId).toMatch(/^[0-9a-f-]{36}$/);
      else if (op.method === "GET") expect(logged.idempotencyKey, op.operationId).toBeNull();
    }
  }, 240_000);

  it("retries a 429 after its Retry-After with the same Idempotency-Key and body: one payment", async () => {
    // A second service on the suite's database with a per-key budget of 2 requests in 3 seconds.
    const limited = await startService({
      DATABASE_URL: TEST_DATABASE_URL,
      TRUSTED_PROXIES: "127.0.0.1,::1",
      RATE_LIMIT_PER_KEY: "2",
      RATE_LIMIT_WINDOW_SECONDS: "3",
    });
    services.push(limited);
    const m = await newMerchant();
    const statuses: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const res = await fromIp(m.ip)(input, init);
      statuses.push(res.status);
      return res;
    };
    const client = createClient({ baseUrl: limited.url, apiKey: m.key, fetch: counting, maxAttempts: 5 });
    await client.GET("/v1/payments");
    await client.GET("/v1/payments");
    const body = depositBody() as { reference: string; amount: string; currency: "USD"; method: "GATEWAY"; direction: "DEPOSIT" };
    const payment = await client.POST("/v1/payments", { body });
    expect(statuses.slice(0, 3)).toEqual([200, 200, 429]);
    expect(statuses.at(-1)).toBe(201);
    expect(payment).toMatchObject({ reference: body.reference, status: "PENDING" });
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(1);
    // The log shows the refused attempt and the accepted one under one Idempotency-Key.
    const logged = await eventually(async () => {
      const page = (await m.api("/v1/requests?method=POST&path=/v1/payments")).body;
      return page.items.length >= 2 && page.items.some((r: { status: number }) => r.status === 201) ? page.items : null;
    });
    expect(new Set(logged.map((r: { status: number }) => r.status))).toEqual(new Set([429, 201]));
    expect(new Set(logged.map((r: { idempotencyKey: string }) => r.idempotencyKey)).size).toBe(1);
  }, 60_000);

  it("retries a 5xx and a lost connection with the same key and body; gives up after maxAttempts", async () => {
    // A stand-in that answers 503, then drops the connection, then 201: what the client sent each time.
    const seen: { key: string | undefined; body: string }[] = [];
    const standIn = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req
        .on("data", (c: Buffer) => chunks.push(c))
        .on("end", () => {
          seen.push({ key: req.headers["idempotency-key"] as string | undefined, body: Buffer.concat(chunks).toString() });
          if (seen.length === 1)
            return res
              .writeHead(503, { "content-type": "application/json", "retry-after": "0" })
              .end(JSON.stringify({ error: { code: "SERVICE_UNAVAILABLE", message: "down", requestId: randomUUID() } }));
          if (seen.length === 2) return req.socket.destroy();
          res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ id: randomUUID(), status: "PENDING" }));
        });
    });
    await new Promise<void>((r) => standIn.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(standIn.address() as { port: number }).port}`;
    try {
      const body = depositBody() as { reference: string; amount: string; currency: "USD"; method: "GATEWAY"; direction: "DEPOSIT" };
      await createClient({ baseUrl: url, apiKey: "sk_sandbox_x", baseDelayMs: 10 }).POST("/v1/payments", { body });
      expect(seen).toHaveLength(3);
      expect(new Set(seen.map((s) => s.key)).size).toBe(1);
      expect(present(seen?.[0], "seen?.[0]").key).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(seen.map((s) => s.body))).toEqual(new Set([JSON.stringify(body)]));
      // Bounded: two attempts against a service that is always down end with the last answer as a typed error.
      seen.length = 0;
      const down = createClient({ baseUrl: url, apiKey: "sk_sandbox_x", maxAttempts: 1 });
      await expect(down.POST("/v1/payments", { body })).rejects.toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE" });
      expect(seen).toHaveLength(1);
    } finally {
      standIn.close();
    }
    const closed = createClient({ baseUrl: "http://127.0.0.1:9", apiKey: "sk_sandbox_x", maxAttempts: 2, baseDelayMs: 10 });
    await expect(closed.GET("/v1/payments")).rejects.toMatchObject({ name: "SandpiperError", status: 0, code: "NETWORK_ERROR", requestId: null });
  });

  it("pages through 1,000 payments, each once", async () => {
    const m = await newMerchant();
    const day = new Date().toISOString().slice(0, 10);
    const references = Array.from({ length: 1000 }, (_, i) => `bulk-${i}-${randomUUID().slice(0, 8)}`);
    // A seed of 1,000 rows in one statement (the counters are kept by the table's triggers as for API creates).
    await db.payment.createMany({
      data: references.map((reference) => ({
        merchantId: m.merchant.id,
        reference,
        amountMinor: 1000n,
        feeMinor: 0n,
        currency: "USD",
        method: "GATEWAY",
        direction: "DEPOSIT",
        status: "PENDING",
        businessDay: day,
        expiresAt: null,
        customer: {},
      })),
    });
    const client = clientOf(m);
    const seen: string[] = [];
    for await (const p of client.list("/v1/payments", { limit: "37" })) seen.push(p.reference);
    expect(seen).toHaveLength(1000);
    expect(new Set(seen)).toEqual(new Set(references));
    let filtered = 0;
    for await (const p of client.list("/v1/payments", { status: "SUCCEEDED" })) filtered += p.status === "SUCCEEDED" ? 1 : 0;
    expect(filtered).toBe(0);
    // The request log and the events list page the same way.
    const requests: string[] = [];
    for await (const r of client.list("/v1/requests", { limit: "5", path: "/v1/payments" })) requests.push(r.requestId);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(requests).size).toBe(requests.length);
  }, 60_000);

  it("follows the events feed after a cursor, oldest first, across pages", async () => {
    const m = await newMerchant();
    const client = clientOf(m);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const payment = await client.POST("/v1/payments", { body: depositBody() as never });
      await client.POST("/v1/sandbox/payments/{id}/complete", { params: { path: { id: payment.id } }, body: { outcome: "SUCCEEDED" } });
      ids.push(payment.id);
    }
    const newestFirst: { id: string; data: unknown }[] = [];
    for await (const e of client.list("/v1/events", { limit: "3" })) newestFirst.push(e);
    expect(newestFirst.map((e) => (e.data as { id: string }).id)).toEqual([...ids].reverse());
    const followed: string[] = [];
    for await (const e of client.list("/v1/events", { after: present(newestFirst[3], "newestFirst[3]").id, limit: "2" })) followed.push(e.id);
    expect(followed).toEqual([
      present(newestFirst[2], "newestFirst[2]").id,
      present(newestFirst[1], "newestFirst[1]").id,
      present(newestFirst[0], "newestFirst[0]").id,
    ]);
  });

  it("the methods named by operationId: scenario rules made, listed, changed (PATCH) and removed (DELETE); a refusal throws", async () => {
    const m = await newMerchant();
    const client = clientOf(m);
    const rule = await client.createScenarioRule({ body: { name: "fail 13.13", match: { amount: "13.13" }, outcome: "FAILED", enabled: false, delayMs: 0 } });
    const changed = await client.updateScenarioRule({ params: { path: { id: rule.id } }, body: { enabled: true } });
    expect([rule.enabled, changed.enabled, changed.id]).toEqual([false, true, rule.id]);
    const listed: string[] = [];
    for await (const r of client.list("/v1/sandbox/scenario-rules")) listed.push(r.id);
    expect(listed).toEqual([rule.id]);
    const refused = await client.updateScenarioRule({ params: { path: { id: rule.id } }, body: { delayMs: -1 } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SandpiperError);
    expect(refused).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    await client.deleteScenarioRule({ params: { path: { id: rule.id } } });
    await client.DELETE("/v1/sandbox/scenario-rules/{id}", { params: { path: { id: rule.id } } }); // again: the same answer
    await expect(client.DELETE("/v1/sandbox/scenario-rules/{id}", { params: { path: { id: randomUUID() } } })).rejects.toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });
    expect((await client.listScenarioRules()).items).toEqual([]);
    // Numbers for whole-number query parameters; the request log's errorCode is one of the document's codes.
    const page = await eventually(async () => {
      const answer = await client.listRequests({ params: { query: { limit: 2, status: "4xx" } } });
      return answer.items.length === 2 ? answer : null;
    });
    expect(page.limit).toBe(2);
    expect(new Set(page.items.map((r) => r.errorCode))).toEqual(new Set(["NOT_FOUND", "VALIDATION_ERROR"]));
  });

  it("an error answer is a SandpiperError with status, code, message and requestId; a 4xx is not retried", async () => {
    const m = await newMerchant();
    const statuses: number[] = [];
    const client = createClient({
      baseUrl: baseUrl(),
      apiKey: m.key,
      fetch: async (i, init) => {
        const r = await fromIp(m.ip)(i, init);
        statuses.push(r.status);
        return r;
      },
    });
    const missing = await client.GET("/v1/payments/{id}", { params: { path: { id: randomUUID() } } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SandpiperError);
    expect(missing).toMatchObject({ status: 404, code: "NOT_FOUND", requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const invalid = (await client.POST("/v1/payments", { body: { ...depositBody(), amount: "-1" } as never }).catch((e: unknown) => e)) as SandpiperError;
    expect([invalid.status, invalid.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(invalid.message).toMatch(LOG_POINTER);
    expect(invalid.message).toContain(invalid.requestId);
    expect(statuses).toEqual([404, 400]);
    const refused = createClient({ baseUrl: baseUrl(), apiKey: "sk_sandbox_wrong" });
    await expect(refused.GET("/v1/payments")).rejects.toMatchObject({ status: 401, code: "INVALID_API_KEY" });
  });
});

describe("callbacks", () => {
  it("verifyCallback accepts the service's real delivery and refuses a changed one; the listener secret is the service's", async () => {
    const m = await newMerchant();
    const rx = await startReceiver();
    try {
      const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
      const client = clientOf(m);
      const payment = await client.POST("/v1/payments", { body: depositBody() as never });
      await client.POST("/v1/sandbox/payments/{id}/complete", { params: { path: { id: payment.id } }, body: { outcome: "SUCCEEDED" } });
      const delivered = await eventually(async () => rx.received[0], 20_000);
      const verified = verifyCallback(delivered.body, delivered.headers, secret);
      expect(verified).toMatchObject({ ok: true, secretIndex: 0, event: { type: "payment.succeeded", data: { id: payment.id } } });
      const changed = Buffer.from(delivered.body.toString().replace("SUCCEEDED", "FAILED"));
      expect(verifyCallback(changed, delivered.headers, secret)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
      expect(verifyCallback(delivered.body, delivered.headers, secret, { now: Date.now() + 301_000 })).toEqual({
        ok: false,
        reason: "TIMESTAMP_OUT_OF_TOLERANCE",
      });

      // `sandpiper listen` forwards are signed with the key's listener secret: the same derivation as the service's.
      expect(listenerSecret(m.key)).toBe(serviceListenerSecret(m.key));
      // After rotations: the same secret as the service derives, at every generation.
      for (const generation of [1, 2, 7]) expect(listenerSecret(m.key, generation)).toBe(serviceListenerSecret(m.key, generation));
      const timestamp = String(Math.floor(Date.now() / 1000));
      const headers = {
        "x-service-event-id": String(delivered.headers["x-service-event-id"]),
        "x-service-timestamp": timestamp,
        "x-service-signature": signCallback(serviceListenerSecret(m.key), timestamp, delivered.body),
      };
      expect(verifyCallback(delivered.body, headers, [secret, listenerSecret(m.key)])).toMatchObject({ ok: true, secretIndex: 1 });
      expect(verifyCallback(delivered.body, headers, secret)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
    } finally {
      await rx.close();
    }
  }, 60_000);
});

describe("the package", () => {
  it("builds, installs into another project without the registry, type-checks and runs the guide's walk-throughs", async () => {
    execFileSync("npm", ["run", "build"], { cwd: clientDir, stdio: "pipe" });
    const project = path.join(work, "consumer");
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }));
    execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", clientDir], { cwd: project, stdio: "pipe" });
    const programs = ["walkthrough.ts", "walkthrough-events.ts"];
    for (const name of programs) fs.writeFileSync(path.join(project, name), docBlock("docs/guides/typescript-client.md", `// ${name}`));
    // The guide's programs type-check against the installed package's types.
    execFileSync(
      process.execPath,
      [
        path.join(root, "node_modules/typescript/bin/tsc"),
        "--noEmit",
        "--strict",
        "--target",
        "es2022",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--skipLibCheck",
        "--types",
        "node",
        "--typeRoots",
        path.join(root, "node_modules/@types"),
        ...programs,
      ],
      { cwd: project, stdio: "pipe" },
    );
    const m = await newMerchant();
    const loader = pathToFileURL(path.join(root, "node_modules/tsx/dist/esm/index.mjs")).href;
    const out = execFileSync(process.execPath, ["--import", loader, "walkthrough.ts"], {
      cwd: project,
      env: { ...process.env, SANDPIPER_URL: baseUrl(), SANDPIPER_KEY: m.key },
      encoding: "utf8",
    });
    const lines = out.trim().split("\n");
    expect(lines[0]).toMatch(/^404 NOT_FOUND \(requestId [0-9a-f-]{36}\)$/);
    const result = JSON.parse(lines.at(-1)!);
    expect(result).toMatchObject({ read: "PENDING", done: "SUCCEEDED", succeeded: 1 });
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(1);

    // The events and request-log walk-through, as written.
    const other = await newMerchant();
    const events = execFileSync(process.execPath, ["--import", loader, "walkthrough-events.ts"], {
      cwd: project,
      env: { ...process.env, SANDPIPER_URL: baseUrl(), SANDPIPER_KEY: other.key },
      encoding: "utf8",
    });
    expect(JSON.parse(events.trim().split("\n").at(-1)!)).toEqual({ types: ["payment.succeeded"], redelivered: true, logged: [400, "VALIDATION_ERROR"] });
  }, 120_000);
});
