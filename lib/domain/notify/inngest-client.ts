// The Inngest client (docs/architecture.md "Stack": Inngest functions are the production driver of background jobs).
// It is configured by the environment: INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY (Inngest Cloud) or
// INNGEST_DEV=1 / INNGEST_DEV=<dev server url> (a local Inngest dev server). Imported only where Inngest is
// configured (lib/domain/notify/announce.ts and app/api/inngest load it dynamically): a service without Inngest never loads
// the SDK (docs/architecture.md "Jobs").
import { Inngest } from "inngest";
import { DELIVERY_DUE, STORE_HANDOFF_DUE } from "@/lib/domain/notify/due-events";

/** The app's Inngest client, id "sandpiper". */
export const inngest = new Inngest({ id: "sandpiper" });

/** Name of the event that asks for one delivery attempt of a callback (lib/domain/notify/due-events.ts `DELIVERY_DUE`). */
export const DELIVERY_DUE_EVENT = DELIVERY_DUE.name;

/** Name of the event that asks for the handoff of one queued store checkout (`STORE_HANDOFF_DUE`). */
export const STORE_HANDOFF_DUE_EVENT = STORE_HANDOFF_DUE.name;
