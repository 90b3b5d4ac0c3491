// Floor server for the load benchmark: the least a payment create or read can cost on this machine. A bare node:http
// server and a pg pool, with none of the checks, pricing, authentication or framework:
// - POST /payments: the same insert transaction as Sandpiper's create (advisory lock on the idempotency key, one
//   payment row, one idempotency row, commit);
// - GET /payments/<id>: the payment row by id and merchant (one statement), answered as JSON (404 when absent).
// Env: PORT, DATABASE_URL, FLOOR_MERCHANT_ID, DB_POOL_MAX (default 10, Sandpiper's default).
import http from "node:http";
import { createHash, randomUUID } from "node:crypto";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX ?? 10) });
const merchantId = process.env.FLOOR_MERCHANT_ID;

function minor(amount) {
  const [whole, frac = ""] = amount.split(".");
  return (BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0"))).toString();
}

async function createPayment(key, raw) {
  const body = JSON.parse(raw);
  const id = randomUUID();
  const now = new Date();
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`${merchantId}:${key}`]);
    const { rows } = await client.query(
      `INSERT INTO payments (id, merchant_id, reference, amount_minor, fee_minor, currency, method, direction, status, business_day, created_at, expires_at, updated_at)
       VALUES ($1, $2, $3, $4, 0, $5, $6, $7, 'PENDING', $8, $9, $10, $9)
       RETURNING id, merchant_id AS "merchantId", reference, status, created_at AS "createdAt"`,
      [
        id,
        merchantId,
        body.reference,
        minor(body.amount),
        body.currency,
        body.method,
        body.direction,
        now.toISOString().slice(0, 10),
        now,
        new Date(now.getTime() + 30 * 60_000),
      ],
    );
    const response = { ...rows[0], amount: body.amount, currency: body.currency, environment: "sandbox" };
    await client.query(
      `INSERT INTO idempotency_records (id, merchant_id, key, method, path, body_hash, response_status, response_body, resource_id)
       VALUES ($1, $2, $3, 'POST', '/payments', $4, 201, $5, $6)`,
      [randomUUID(), merchantId, key, createHash("sha256").update(raw).digest("hex"), JSON.stringify(response), id],
    );
    await client.query("COMMIT");
    return response;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function readPayment(id) {
  const { rows } = await pool.query("SELECT * FROM payments WHERE id = $1 AND merchant_id = $2", [id, merchantId]);
  return rows[0] ?? null;
}

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url?.startsWith("/payments/")) {
    readPayment(req.url.slice("/payments/".length)).then(
      (payment) =>
        payment
          ? res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(payment))
          : res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not found" })),
      (error) => res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: String(error) })),
    );
    return;
  }
  const chunks = [];
  req
    .on("data", (c) => chunks.push(c))
    .on("end", async () => {
      try {
        const payment = await createPayment(String(req.headers["idempotency-key"]), Buffer.concat(chunks).toString("utf8"));
        res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify(payment));
      } catch (error) {
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: String(error) }));
      }
    });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3100), "127.0.0.1", () => console.log(`floor server listening on ${server.address().port}`));
process.once("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
