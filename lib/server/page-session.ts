import "server-only";
// The session as server components see it (panel layout and pages): the cookie resolved to its account through
// the sessions table, once per render (React cache), so a blocked account or a password changed elsewhere ends it
// on the next page.
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { PAGE_PATH_HEADER, safeNextPath } from "@/lib/security-headers";
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
  // Back to the page asked for after the sign-in (the proxy passes its path).
  const asked = safeNextPath((await headers()).get(PAGE_PATH_HEADER));
  const q = new URLSearchParams();
  if (hadCookie) q.set("reason", "expired");
  if (asked && asked !== "/") q.set("next", asked);
  redirect(q.size ? `/login?${q}` : "/login");
}

/** The session of a domain administrator; an ordinary account is sent to its own page, anyone else to the login. */
export async function requirePostmaster(): Promise<PageSession> {
  const session = await requireSession();
  // Sent to its own page with the word why (/me shows it), rather than silently.
  if (!session.isPostmaster) redirect("/me?denied=1");
  return session;
}

/** Where a signed-in account starts: the postmaster's account table, or an ordinary account's own settings. */
export const landingPage = (s: SessionInfo) => (s.isPostmaster ? "/accounts" : "/me");
