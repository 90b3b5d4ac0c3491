import { getServerSession } from "next-auth";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/lib/platform/db";
import { ApiError } from "@/lib/contract/errors";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { authOptions } from "@/lib/application/console/auth-options";
import { sessionActor } from "@/lib/domain/users/sessions";

/**
 * The signed-in console user, re-read from the database (so deactivation, role and merchant changes apply
 * at once), or null when there is no valid session, the user is no longer active, or the session was issued
 * before the user's last sign-out (session epoch).
 */
export async function currentActor(): Promise<ConsoleActor | null> {
  const session = await getServerSession(authOptions);
  const id = session?.userId;
  if (!id) return null;
  return sessionActor(getDb(), id, session.sessionEpoch ?? 0);
}

/** For pages: the signed-in user, or a redirect to the sign-in page. */
export async function requireActor(): Promise<ConsoleActor> {
  const actor = await currentActor();
  if (!actor) redirect("/console/sign-in");
  return actor;
}

/** For operator-only pages: a MERCHANT user gets the 404 page (the page does not exist for it). */
export async function requireOperatorPage(): Promise<ConsoleActor> {
  const actor = await requireActor();
  if (actor.role !== "OPERATOR") notFound();
  return actor;
}

/** Awaits a console lookup; its 404 NOT_FOUND becomes the page's 404 (other errors propagate). */
export async function orNotFound<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
