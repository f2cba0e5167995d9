import "server-only";
// The BFF's call into a /api/v1 route handler, in process: the same handler, so every permission and validation
// rule is the service's own, and the answer is passed back unchanged. The inner request carries the session's
// Basic credentials and the per-process panel secret; no header of the browser's request is copied except the
// body's content type and the TCP peer address (set by lib/runtime/server.mjs), which lockout and last_auth_ip use.
import { apiError } from "@/lib/errors/api-error";
import { PEER_ADDRESS_HEADER } from "./client-address";
import { PANEL_CALL_HEADER, panelCallToken } from "./panel-call";
import { panelErrors } from "@/lib/errors/panel-errors";
import { clearedSessionCookie, destroySession, isHttps, type Session } from "./session";
import { json, noSession } from "./panel-http";

export type V1Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const MAX_BODY_BYTES = 1024 * 1024;

export async function callV1(
  req: Request,
  session: Session,
  path: readonly string[],
  handler: V1Handler,
  params: Record<string, string>,
): Promise<Response> {
  const url = new URL(req.url);
  // JSONP and the envelope are for API clients; the panel always speaks plain JSON.
  url.searchParams.delete("callback");
  url.searchParams.delete("envelope");
  const inner = new URL(`/api/v1/${path.map(encodeURIComponent).join("/")}${url.search}`, url.origin);

  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  if (hasBody && Number(req.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw apiError("bodyTooLarge");
  const bodyText = hasBody ? await req.text() : undefined;
  // The owner's own password changes only with the current password (PUT /api/panel/password), so that a session
  // alone cannot take the account over.
  if (isOwnPasswordChange(req.method, session, params, path[0], bodyText)) {
    const { code, message, category, status } = panelErrors.currentPasswordRequired;
    return json({ code, message, category, source: "password" }, status);
  }

  const headers = new Headers({
    authorization: `Basic ${Buffer.from(`${session.email}:${session.digest}`).toString("base64")}`,
    [PANEL_CALL_HEADER]: panelCallToken(),
    [PEER_ADDRESS_HEADER]: req.headers.get(PEER_ADDRESS_HEADER) ?? "",
  });
  const contentType = req.headers.get("content-type");
  if (contentType) headers.set("content-type", contentType);

  const res = await handler(new Request(inner, { method: req.method, headers, body: bodyText }), {
    params: Promise.resolve(params),
  });

  if (res.status === 403) {
    const body = (await res.clone().json().catch(() => null)) as { code?: string } | null;
    // 403.1: the session's credentials no longer pass (password changed elsewhere, blocked, expired, locked out).
    if (body?.code === "403.1") {
      destroySession(session.id);
      return noSession({ "set-cookie": clearedSessionCookie(isHttps(req)) });
    }
  }
  return res;
}

/** A successful PUT of the signed-in account's own record with a new password (the service validated it). */
function isOwnPasswordChange(
  method: string,
  session: Session,
  params: Record<string, string>,
  resource: string | undefined,
  bodyText: string | undefined,
): boolean {
  if (method !== "PUT" || resource !== "emails" || !bodyText) return false;
  if (`${params.name}@${params.domain}`.toLowerCase() !== session.email) return false;
  try {
    const password = (JSON.parse(bodyText) as { password?: unknown }).password;
    return typeof password === "string" && password !== "";
  } catch {
    return false;
  }
}
