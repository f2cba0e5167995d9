// POST /api/panel/session/logout: sign out from a plain HTML form (works before the page's JavaScript has loaded)
// and land on the login page with the "signed out" notice. The same-origin check applies (forms send Origin).
import { withPanel } from "@/lib/server/panel-http";
import { clearedSessionCookie, destroySession, isHttps } from "@/lib/server/session";

export const POST = withPanel(({ req, session }) => {
  destroySession(session?.id);
  return new Response(null, {
    status: 303,
    headers: { location: "/login?reason=logout", "set-cookie": clearedSessionCookie(isHttps(req)), "cache-control": "no-store" },
  });
}, false);
export { panelMethodNotAllowed as GET, panelMethodNotAllowed as PUT, panelMethodNotAllowed as DELETE, panelMethodNotAllowed as PATCH } from "@/lib/server/panel-fallback";
