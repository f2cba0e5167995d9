// POST /api/panel/session {email, digest}: sign in (same authentication and throttle as /api/v1), sets the cookie.
// GET: the signed-in account {email, domain, isPostmaster}, or 401. DELETE: sign out.
import { noContent, noSession, ok, withPanelSession } from "@/lib/server/http/http";
import { deviceCookie, newDeviceToken, readDeviceToken } from "@/lib/server/caller/device-cookie";
import { panelLogin, readCredentials } from "@/lib/server/caller/panel-login";
import { secondStepAnswer } from "@/lib/server/http/totp-http";
import {
  clearedSessionCookie,
  createSession,
  destroySession,
  isHttps,
  sessionCookie,
  sessionInfo,
} from "@/lib/server/caller/session";

export const POST = withPanelSession(async ({ req, db, clientIp, sessionId, body }) => {
  const secure = isHttps(req);
  const principal = await panelLogin(db, readCredentials(await body()), clientIp, readDeviceToken(req, secure));
  // Two-step sign-in (lib/server/caller/totp.ts): the password was right; the code comes next, then the session.
  const second = await secondStepAnswer(db, req, principal, clientIp);
  if (second) return second;
  // A fresh id at every sign-in, so an id planted before the login is worthless after it.
  await destroySession(db, sessionId);
  const id = await createSession(db, principal, clientIp);
  // A (new) device cookie for this account: this browser's later sign-ins pass the account's lock.
  const headers = new Headers();
  headers.append("set-cookie", sessionCookie(id, secure));
  headers.append("set-cookie", deviceCookie(await newDeviceToken(db, principal.account.email), secure));
  return ok(sessionInfo(principal), 200, headers);
});

export const GET = withPanelSession(({ req, principal }) => (principal ? ok(sessionInfo(principal)) : noSession(req)));

export const DELETE = withPanelSession(async ({ req, db, sessionId }) => {
  await destroySession(db, sessionId);
  return noContent({ "set-cookie": clearedSessionCookie(isHttps(req)), "cache-control": "no-store" });
});
export { panelMethodNotAllowed as PUT, panelMethodNotAllowed as PATCH } from "@/lib/server/http/panel-fallback";
