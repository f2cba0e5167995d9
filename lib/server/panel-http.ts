import "server-only";
// The wrapper of the panel's own endpoints (/api/panel/**): same-origin check for mutating requests, the session
// lookup, and JSON error answers. Errors of the service itself pass through unchanged (they come from /api/v1's
// handlers); only "no session" is the panel's own answer, a 401 without WWW-Authenticate so browsers never show a
// Basic-auth prompt.
import { panelErrors } from "@/lib/errors/panel-errors";
import { toApiError } from "./http";
import { getSession, readSessionId, type Session } from "./session";
import { PEER_ADDRESS_HEADER, normalizeIp } from "./client-address";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
const MUTATING = new Set(["POST", "PUT", "DELETE", "PATCH"]);

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });

const panelError = ({ code, message, category, status }: (typeof panelErrors)[keyof typeof panelErrors], headers: Record<string, string> = {}) =>
  json({ code, message, category }, status, headers);

/** The panel's "sign in again" answer (lib/errors/panel-errors.ts says why it is not in the v1 catalog). */
export const noSession = (headers: Record<string, string> = {}) => panelError(panelErrors.noSession, headers);

const crossOrigin = () => panelError(panelErrors.crossOrigin);

/** The origin the browser used to reach us: scheme of the request, host from the Host header. */
export function ownOrigin(req: Request): string {
  const url = new URL(req.url);
  const proto = req.headers.get("x-forwarded-proto") === "https" ? "https:" : url.protocol;
  return `${proto}//${req.headers.get("host") ?? url.host}`;
}

/** CSRF defence on top of SameSite=Strict: a mutating request must say it comes from our own origin. */
export function isSameOrigin(req: Request): boolean {
  if (!MUTATING.has(req.method)) return true;
  const origin = req.headers.get("origin");
  return !!origin && origin === ownOrigin(req);
}

export const clientIp = (req: Request) => normalizeIp(req.headers.get(PEER_ADDRESS_HEADER) ?? "");

interface PanelContext {
  req: Request;
  session: Session | null;
  /** Dynamic segments of the route ({} for static routes, which Next calls without a context). */
  params: Record<string, string | string[]>;
}

/** Wraps a panel endpoint; `needsSession` answers 401 before the handler runs when there is no live session. */
export function withPanel(handler: (ctx: PanelContext) => Promise<Response> | Response, needsSession = true) {
  return async (req: Request, route?: { params?: Promise<Record<string, string | string[]>> }) => {
    try {
      if (!isSameOrigin(req)) return crossOrigin();
      const session = getSession(readSessionId(req));
      if (needsSession && !session) return noSession();
      return await handler({ req, session, params: (await route?.params) ?? {} });
    } catch (err) {
      const error = toApiError(err);
      return json(error.toBody(), error.status);
    }
  };
}
