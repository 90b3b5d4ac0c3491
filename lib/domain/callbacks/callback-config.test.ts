import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { buildCallbackHeaders, standardWebhooksKey, standardWebhooksSecret } from "@/lib/contract/callbacks/signing";
import { newCallbackSecret } from "./callback-config";

describe("newCallbackSecret", () => {
  const eventId = "7f1c1f0e-3c55-4a43-9f0e-8d7c1b1b2a10";
  const rawBody = JSON.stringify({ id: eventId, type: "payment.failed" });

  it("new secrets read the same in both forms and the standardwebhooks package verifies with them as printed", () => {
    for (let i = 0; i < 50; i++) {
      const secret = newCallbackSecret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9]{44}$/);
      expect(standardWebhooksSecret(secret)).toBe(secret);
      expect(standardWebhooksKey(secret)).toHaveLength(33);
      expect(verifies(secret, buildCallbackHeaders({ eventId, rawBody, secret, nowMs: Date.now() }))).toBe(true);
    }
  });
});

function verifies(secret: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(JSON.stringify({ id: "7f1c1f0e-3c55-4a43-9f0e-8d7c1b1b2a10", type: "payment.failed" }), headers);
    return true;
  } catch {
    return false;
  }
}
