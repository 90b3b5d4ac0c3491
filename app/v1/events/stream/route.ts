// GET /v1/events/stream - new events and redeliveries after a cursor, for listeners (server-sent events or JSON)
import type { EventType } from "@/lib/domain/events/outbox";
import { feedPage, streamFeed } from "@/lib/domain/events/stream";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { acquireStreamPlace } from "@/lib/application/http/rate-limit";
import { SSE_HEADERS, sseStream } from "@/lib/platform/sse";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const dynamic = "force-dynamic";

export const GET = merchantApi(OPERATIONS.streamEvents, async ({ db, merchant, apiKey, query, headers, signal }) => {
  const opts = {
    cursor: query.cursor === undefined ? undefined : BigInt(query.cursor),
    types: query.types?.split(",") as EventType[] | undefined,
    chaos: merchant.chaosMode,
  };
  if (/\btext\/event-stream\b/i.test(headers.get("accept") ?? "")) {
    const release = await acquireStreamPlace(apiKey.id, merchant.id);
    const authority = {
      apiKeyId: apiKey.id,
      scope: OPERATIONS.streamEvents.scope,
      mayRecordForwards: apiKey.scopes.includes(OPERATIONS.recordForwards.scope),
    };
    const stream = sseStream(signal, (out, gone) => streamFeed(db, merchant.id, authority, opts, out, gone).finally(release));
    return { status: 200, body: null, headers: SSE_HEADERS, stream };
  }
  return { status: 200, body: await feedPage(db, merchant.id, { ...opts, waitSeconds: query.wait ?? 0 }, signal) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
