// POST /api/panel/session/logout: sign out from a plain HTML form (works before the page's JavaScript has loaded)
// and land on the login page with the "signed out" notice. The same-origin check applies (forms send Origin).
import { withPanelSession } from "@/lib/server/http/http";
import { clearedSessionCookie, destroySession, isHttps } from "@/lib/server/caller/session";

export const POST = withPanelSession(async ({ req, db, sessionId }) => {
  await destroySession(db, sessionId);
  return {
    status: 303,
    body: null,
    headers: {
      location: "/login?reason=logout",
      "set-cookie": clearedSessionCookie(isHttps(req)),
      "cache-control": "no-store",
    },
  };
});
export {
  panelMethodNotAllowed as GET,
  panelMethodNotAllowed as PUT,
  panelMethodNotAllowed as DELETE,
  panelMethodNotAllowed as PATCH,
} from "@/lib/server/http/panel-fallback";
