import "server-only";
// The session as server components see it (panel layout and pages): the cookie resolved to its account through
// the sessions table, once per render (React cache), so a blocked account or a password changed elsewhere ends it
// on the next page.
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { cameOverHttps, PAGE_PATH_HEADER, safeNextPath } from "@/lib/security-headers";
import { clientAddress, FORWARDED_FOR_HEADER, PEER_ADDRESS_HEADER } from "./client-address";
import { parseSessionCookies, resolveSession, sessionInfo, type SessionInfo } from "../caller/session";

export interface PageSession extends SessionInfo {
  /** The account name (the part before @). */
  name: string;
}

const pageCookie = async () => {
  const h = await headers();
  return parseSessionCookies(h.get("cookie"), cameOverHttps(h.get("x-forwarded-proto"), "http:"));
};

export const currentSession = cache(async (): Promise<PageSession | null> => {
  const { id } = await pageCookie();
  if (!id) return null;
  const h = await headers();
  const ip = clientAddress(h.get(PEER_ADDRESS_HEADER), h.get(FORWARDED_FOR_HEADER));
  const principal = (await resolveSession(getDb(), id, ip))?.principal;
  if (!principal) return null;
  return { ...sessionInfo(principal), name: principal.account.name };
});

/** The session, or a redirect to the login page (with the "session expired" notice when a cookie was there). */
export async function requireSession(): Promise<PageSession> {
  const session = await currentSession();
  if (session) return session;
  const c = await pageCookie();
  const hadCookie = c.several || c.id !== null;
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
