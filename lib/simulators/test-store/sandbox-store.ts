// The sandbox store: the single connected store of this sandbox, hosted by Sandpiper behind the
// StoreConnector interface (docs/api.md "Overview" 4 and 6).
import { systemNow } from "@/lib/platform/clock";
import { randomBytes } from "node:crypto";
import { getDb, type Db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import type { HandoffAnswer, SignedHandoff, StoreConnector } from "@/lib/simulators/test-store/connector";
import { preparedStoreCatalog } from "@/lib/simulators/test-store/catalog-cache";
import { handoffKey, verifyHandoff } from "@/lib/simulators/test-store/handoff-signing";
import { matchPrepared } from "@/lib/simulators/test-store/matching";

/** A store page token: 32 random bytes, base64url (43 characters, 256 bits). */
export function newStoreToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The sandbox store. `handoff` verifies the signature and freshness (lib/simulators/test-store/handoff-signing.ts
 * `verifyHandoff`; a tampered, malformed or stale handoff is REFUSED), then matches the locked AED charge
 * against the active catalog (prepared index cached per catalog version; lib/simulators/test-store/matching.ts): READY
 * with a new page token, the lines, subtotal, discount and match type, or REJECTED with the matcher's
 * error text (also when the catalog cannot be matched at all: invalid rows, or a basket needed from a
 * catalog the index cannot hold; docs/api.md "Overview" 6: nothing fits -> the checkout fails, at once, not by expiry). Stateless: a repeated handoff gets a fresh answer (Sandpiper applies only one).
 * Options: `db` (default the one client), `clock` (default the real clock; tests move it).
 */
export class SandboxStore implements StoreConnector {
  constructor(private readonly opts: { db?: Db; clock?: () => Date } = {}) {}

  async handoff(signed: SignedHandoff): Promise<HandoffAnswer> {
    const db = this.opts.db ?? getDb();
    const verified = await verifyHandoff(signed, await handoffKey(db), this.opts.clock?.() ?? systemNow());
    if (!verified.ok) {
      log.warn({ reason: verified.reason }, "sandbox store refused a handoff");
      return { outcome: "REFUSED", reason: verified.reason };
    }
    const catalog = await preparedStoreCatalog(db);
    // A catalog the matcher refuses is a lasting state of this catalog version, not a transport failure.
    if (catalog.problem !== null) return { outcome: "REJECTED", error: catalog.problem };
    const match = matchPrepared(catalog.index, BigInt(verified.payload.chargeMinor));
    if (!match.ok) return { outcome: "REJECTED", error: match.error };
    return {
      outcome: "READY",
      token: newStoreToken(),
      matchType: match.matchType,
      lines: match.lines.map((l) => ({ sku: l.sku, name: l.name, kind: l.kind, unitPriceMinor: l.unitPriceMinor, quantity: l.quantity })),
      subtotalMinor: match.subtotalMinor,
      discountMinor: match.discountMinor,
    };
  }
}
