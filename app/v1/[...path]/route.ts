// Any method on an unknown /v1 path - 404 NOT_FOUND in the contract's error envelope.
import { unknownRoute } from "@/lib/application/http/fallback";

export const GET = unknownRoute;
export const POST = unknownRoute;
export const PUT = unknownRoute;
export const PATCH = unknownRoute;
export const DELETE = unknownRoute;
export const OPTIONS = unknownRoute;
