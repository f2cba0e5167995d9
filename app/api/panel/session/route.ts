// POST /api/panel/session {email, digest}: sign in (same authentication as /api/v1), sets the session cookie.
// GET: the signed-in account {email, domain, isPostmaster}, or 401. DELETE: sign out.
import { getDb } from "@/db/client";
import { apiError } from "@/lib/errors/api-error";
import { clientIp, json, noSession, withPanel } from "@/lib/server/panel-http";
import { panelLogin, readCredentials } from "@/lib/server/panel-login";
import {
  clearedSessionCookie,
  createSession,
  destroySession,
  isHttps,
  sessionCookie,
  sessionInfo,
  verifySession,
} from "@/lib/server/session";

export const POST = withPanel(async ({ req, session }) => {
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    throw apiError("invalidJson");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw apiError("bodyNotObject");
  const creds = readCredentials(body as Record<string, unknown>);
  const principal = panelLogin(getDb(), creds, clientIp(req));
  // A fresh id at every sign-in, so an id planted before the login is worthless after it.
  destroySession(session?.id);
  const created = createSession(principal, creds.digest);
  return json(sessionInfo(created), 200, { "set-cookie": sessionCookie(created.id, isHttps(req)) });
}, false);

export const GET = withPanel(({ req, session }) => {
  if (!session || !verifySession(getDb(), session, clientIp(req))) {
    return noSession({ "set-cookie": clearedSessionCookie(isHttps(req)) });
  }
  return json(sessionInfo(session));
}, false);

export const DELETE = withPanel(({ req, session }) => {
  destroySession(session?.id);
  return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(isHttps(req)), "cache-control": "no-store" } });
}, false);
export { panelMethodNotAllowed as PUT, panelMethodNotAllowed as PATCH } from "@/lib/server/panel-fallback";
