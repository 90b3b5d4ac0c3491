// The Inngest client (docs/architecture.md "Stack": Inngest functions are the production driver of background jobs).
// It is configured by the environment: INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY (Inngest Cloud) or
// INNGEST_DEV=1 / INNGEST_DEV=<dev server url> (a local Inngest dev server).
import { Inngest } from "inngest";

/** The app's Inngest client, id "sandpiper". */
export const inngest = new Inngest({ id: "sandpiper" });

/** Event that asks for one delivery attempt of a callback: `data: { deliveryId }`. */
export const DELIVERY_DUE_EVENT = "sandpiper/delivery.due";

/** Event that asks for the signed handoff of one queued store checkout: `data: { paymentId }`. */
export const STORE_HANDOFF_DUE_EVENT = "sandpiper/store-handoff.due";
