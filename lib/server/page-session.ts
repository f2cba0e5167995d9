import "server-only";
// The session as server components see it (panel layout and pages): the cookie resolved to its account through
// the sessions table, once per render (React cache), so a blocked account or a password changed elsewhere ends it
// on the next page.
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { normalizeIp, PEER_ADDRESS_HEADER } from "./client-address";
import { resolveSession, SESSION_COOKIE, sessionInfo, type SessionInfo } from "./session";

export interface PageSession extends SessionInfo {
  /** The account name (the part before @). */
  name: string;
}

export const currentSession = cache(async (): Promise<PageSession | null> => {
  const id = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!id) return null;
  const ip = normalizeIp((await headers()).get(PEER_ADDRESS_HEADER) ?? "");
  const principal = resolveSession(getDb(), id, ip)?.principal;
  if (!principal) return null;
  return { ...sessionInfo(principal), name: principal.account.name };
});

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
