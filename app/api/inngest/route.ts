// /api/inngest - Inngest serve handler (docs/architecture.md "Layout"): Inngest calls the job functions here when
// it drives the background jobs (INNGEST_EVENT_KEY/INNGEST_SIGNING_KEY, or INNGEST_DEV for a dev server).
import { serve } from "inngest/next";
import { inngest } from "@/lib/notify/inngest-client";
import { inngestFunctions } from "@/lib/jobs/inngest";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT } = serve({ client: inngest, functions: [...inngestFunctions] });
