import "server-only";
// The session as server components see it (panel layout and pages): the cookie, the in-memory session, and a
// re-check of its credentials, so a blocked account or a password changed elsewhere ends it on the next page.
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { normalizeIp, PEER_ADDRESS_HEADER } from "./client-address";
import { getSession, SESSION_COOKIE, sessionInfo, verifySession, type SessionInfo } from "./session";

export interface PageSession extends SessionInfo {
  /** The account name (the part before @). */
  name: string;
}

export async function currentSession(): Promise<PageSession | null> {
  const session = getSession((await cookies()).get(SESSION_COOKIE)?.value);
  if (!session) return null;
  const ip = normalizeIp((await headers()).get(PEER_ADDRESS_HEADER) ?? "");
  if (!verifySession(getDb(), session, ip)) return null;
  return { ...sessionInfo(session), name: session.email.slice(0, session.email.lastIndexOf("@")) };
}

/** The session, or a redirect to the login page (with the "session expired" notice when a cookie was there). */
export async function requireSession(): Promise<PageSession> {
  const session = await currentSession();
  if (session) return session;
  const hadCookie = (await cookies()).has(SESSION_COOKIE);
  redirect(hadCookie ? "/login?reason=expired" : "/login");
}

/** The session of a domain administrator; an ordinary account is sent to its own page, anyone else to the login. */
export async function requirePostmaster(): Promise<PageSession> {
  const session = await requireSession();
  if (!session.isPostmaster) redirect(landingPage(session));
  return session;
}

/** Where a signed-in account starts: the postmaster's account table, or an ordinary account's own settings. */
export const landingPage = (s: SessionInfo) => (s.isPostmaster ? "/accounts" : "/me");
