// POST /v1/sandbox/merchants - a new merchant for one test, only in the @sandpiper/sandbox package's process
// (docs/guides/test-in-your-own-suite.md "A merchant per test"); 404 as any unknown /v1 path in every other start.
import { sandboxMerchantsRoute } from "@/lib/application/http/sandbox-token";

export const GET = sandboxMerchantsRoute;
export const POST = sandboxMerchantsRoute;
export const PUT = sandboxMerchantsRoute;
export const PATCH = sandboxMerchantsRoute;
export const DELETE = sandboxMerchantsRoute;
export const OPTIONS = sandboxMerchantsRoute;
