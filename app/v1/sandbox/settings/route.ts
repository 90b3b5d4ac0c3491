// GET /v1/sandbox/settings - read the merchant's sandbox settings; PUT - switch fast retries (audited)
import { apiKeyAuditActor } from "@/lib/domain/audit";
import { getSandboxSettings, switchFastRetries } from "@/lib/domain/callbacks/fast-retries";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const GET = merchantApi(OPERATIONS.getSandboxSettings, async ({ db, merchant }) => {
  return { status: 200, body: await getSandboxSettings(db, merchant.id) };
});

export const PUT = merchantApi(OPERATIONS.updateSandboxSettings, async ({ db, apiKey, merchant, body, now }) => {
  const settings = await switchFastRetries(
    db,
    apiKeyAuditActor(apiKey),
    { merchantId: merchant.id, enabled: body.fastRetries, reason: "PUT /v1/sandbox/settings" },
    now,
  );
  return { status: 200, body: settings };
});

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "PUT"]);
