// Reading the request log (docs/api.md "Request log"): one merchant's requests, newest first, for the API
// (`GET /v1/requests`), the console's Requests page and `sandpiper logs tail`.
import { scopedMerchantId, type ConsoleActor } from "@/lib/domain/auth/actor";
import type { Db } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import type { Prisma } from "@/lib/platform/generated/prisma/client";
import { pageOf, type Page } from "@/lib/contract/pagination";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { RequestLogEntry, type ListRequestsQuery, type RequestLogView } from "@/lib/contract/schemas/api/requests";
import { parseStored } from "@/lib/contract/schemas/stored/parse";

type Row = Prisma.RequestLogGetPayload<object>;

/** What `request_log.resource_type` may hold: the published entry's `resource.type`. */
const ResourceType = RequestLogEntry.shape.resource.unwrap().shape.type;

/**
 * One stored request as the API shows it; the resource's type read through the published enum.
 * @throws StoredDataError naming `request_log.resource_type` when the column holds another value
 */
export function requestLogView(r: Row): RequestLogView {
  return {
    requestId: r.requestId,
    createdAt: r.createdAt.toISOString(),
    keyPrefix: r.keyPrefix,
    method: r.method,
    path: r.path,
    query: r.query,
    status: r.status,
    errorCode: r.errorCode,
    idempotencyKey: r.idempotencyKey,
    replayed: r.replayed,
    latencyMs: r.latencyMs,
    requestBody: r.requestBody,
    responseBody: r.responseBody,
    resource: r.resourceType && r.resourceId ? { type: parseStored(ResourceType, r.resourceType, "request_log.resource_type"), id: r.resourceId } : null,
  };
}

/** The filters of a request log query as a Prisma `where`, for one merchant (undefined: every merchant). */
function whereOf(merchantId: string | undefined, q: RequestFilters): Prisma.RequestLogWhereInput {
  const status = q.status?.endsWith("xx") ? { gte: Number(q.status[0]) * 100, lt: Number(q.status[0]) * 100 + 100 } : q.status ? Number(q.status) : undefined;
  return {
    merchantId,
    ...(status !== undefined ? { status } : {}),
    ...(q.path ? { path: { startsWith: q.path } } : {}),
    ...(q.method ? { method: q.method } : {}),
    ...(q.errorCode ? { errorCode: q.errorCode } : {}),
    ...(q.idempotencyKey ? { idempotencyKey: q.idempotencyKey } : {}),
    ...(q.keyPrefix ? { keyPrefix: { startsWith: q.keyPrefix } } : {}),
    ...(q.since ? { createdAt: { gte: new Date(q.since) } } : {}),
    ...(q.requestId ? { requestId: q.requestId } : {}),
  };
}

/** The filters the API and the console share (the console adds a search by requestId). */
export type RequestFilters = Omit<ListRequestsQuery, "page" | "limit"> & { requestId?: string };

async function page(
  db: Db,
  merchantId: string | undefined,
  q: RequestFilters & { page: number; limit: number },
): Promise<Page<RequestLogView & { merchantId: string }>> {
  const where = whereOf(merchantId, q);
  const [total, rows] = await Promise.all([
    db.requestLog.count({ where }),
    db.requestLog.findMany({ where, orderBy: [{ createdAt: "desc" }, { requestId: "desc" }], skip: (q.page - 1) * q.limit, take: q.limit }),
  ]);
  return pageOf(
    rows.map((r) => ({ ...requestLogView(r), merchantId: r.merchantId })),
    total,
    q,
  );
}

/**
 * `GET /v1/requests` (docs/api.md "Request log"): the merchant's logged requests, newest first, paged like the
 * payments list, with filters (status class or status, path prefix, method, error code, Idempotency-Key, key
 * prefix, since). A request shows up within about a second of its answer (the log is written in batches).
 * @returns `{ items, total, page, limit, pages }`.
 */
export async function listRequests(db: Db, merchantId: string, q: ListRequestsQuery): Promise<Page<RequestLogView>> {
  const found = await page(db, merchantId, q);
  return { ...found, items: found.items.map(({ merchantId: _m, ...view }) => view) };
}

/**
 * The console's Requests page (docs/api.md "Request log"): the same list for a console user, newest first, 25 a
 * page. A MERCHANT user sees only its merchant's requests (whatever `merchant` asks); an operator sees every
 * merchant's, or the one `merchant` names. Items carry their `merchantId`.
 */
export function consoleRequestPage(db: Db, actor: ConsoleActor, q: RequestFilters & { merchant?: string; page: number }) {
  return page(db, scopedMerchantId(actor, q.merchant), { ...q, limit: 25 });
}

/**
 * `GET /v1/requests/{requestId}` (docs/api.md "Request log"): one logged request of the merchant.
 * @throws ApiError 404 NOT_FOUND for a malformed or unknown request id, one of another merchant, or one older than
 *   the retention period.
 */
export async function getRequest(db: Db, merchantId: string, requestId: string): Promise<RequestLogView> {
  const row = isUuid(requestId) ? await db.requestLog.findFirst({ where: { requestId, merchantId } }) : null;
  if (!row)
    throw apiError(
      "NOT_FOUND",
      "request not found in this key's request log (it may be older than the retention period, or not written yet: retry in a second)",
    );
  return requestLogView(row);
}
