// The forward token of a listener session (docs/callbacks.md "Forwards on the service"): handed to `sandpiper listen`
// in its stream's `ready` message when the key may record forwards, and required by `POST /v1/events/forwards`. A JWS
// (HS256, jose) that binds the records to one stream of one key: only that key's listener session can record, and
// only attempts made while that session could have made them.
import { createHmac, randomBytes } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import { realInstant, type RealInstant } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { fieldError } from "@/lib/contract/errors";
import { processState } from "@/lib/platform/process-state";

/** How long after its stream opened a forward token is taken, milliseconds: the stream's 10 minutes and 1 hour to report. */
export const FORWARD_TOKEN_LIFE_MS = 70 * 60 * 1000;
/** How far a listener's clock may be off the service's, milliseconds, when its attempt times are checked. */
export const CLOCK_SKEW_MS = 60_000;

const AUDIENCE = "sandpiper-forwards";

/**
 * The signing key: derived from NEXTAUTH_SECRET (every instance of the service has the same one; server.mjs sets it
 * at start), or random for this process when it is unset (a script or test with no server).
 */
function forwardKey(): Buffer {
  const secret = config().NEXTAUTH_SECRET;
  if (secret) return createHmac("sha256", secret).update("sandpiper listener forward token v1").digest();
  return (processState().forwardKey ??= randomBytes(32));
}

/** What a forward token says: the key and merchant of the stream, when it opened and until when records are taken. */
export type ForwardSession = { apiKeyId: string; merchantId: string; openedAt: RealInstant; expiresAt: RealInstant };

const Claims = z.object({ sub: z.string(), mid: z.string(), opened: z.number().int(), exp: z.number().int() });

/**
 * Issues the forward token of a stream opened at `openedAt` by key `apiKeyId` of `merchantId`, valid for
 * {@link FORWARD_TOKEN_LIFE_MS}.
 * @returns the compact JWS (about 300 characters)
 */
export async function issueForwardToken(session: { apiKeyId: string; merchantId: string; openedAt: RealInstant }): Promise<string> {
  const opened = session.openedAt.getTime();
  return new SignJWT({ mid: session.merchantId, opened })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(session.apiKeyId)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(opened / 1000))
    .setExpirationTime(Math.floor((opened + FORWARD_TOKEN_LIFE_MS) / 1000))
    .sign(forwardKey());
}

/**
 * Checks a forward token against the key that presents it, at `now`.
 * @returns the session it stands for
 * @throws ApiError 400 VALIDATION_ERROR (member `forwardToken`) when it is not a token this service issued to this
 *   key and merchant, or it has expired; the message says to use the token of the listener's current stream.
 */
export async function checkForwardToken(token: string, caller: { apiKeyId: string; merchantId: string }, now: RealInstant): Promise<ForwardSession> {
  const refuse = (why: string) => fieldError("forwardToken", `${why}; send the forwardToken of the stream's ready message (sandpiper listen does)`);
  let claims: z.infer<typeof Claims>;
  try {
    const verified = await jwtVerify(token, forwardKey(), { audience: AUDIENCE, algorithms: ["HS256"], currentDate: now });
    claims = Claims.parse(verified.payload);
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw refuse("expired (records are taken for 70 minutes after the stream opened)");
    throw refuse("not a token this service issued");
  }
  if (claims.sub !== caller.apiKeyId || claims.mid !== caller.merchantId) throw refuse("issued to another API key's stream");
  return { apiKeyId: claims.sub, merchantId: claims.mid, openedAt: realInstant(claims.opened), expiresAt: realInstant(claims.exp * 1000) };
}
