import "server-only";
// The one wrapper of every API handler, for both doors to the same handlers:
//   /api/v1/...        HTTP Basic (a 401 carries the Basic challenge), under the client address rule, with the
//                      envelope and JSONP;
//   /api/panel/v1/...  the panel's session cookie and an Origin check on changes, no client address rule (browser
//                      users come from anywhere), plain JSON, and a 401 without WWW-Authenticate.
// The panel's route files re-export the v1 handlers, so both doors run the same permission and validation rules.
// It also reads bodies (at most 1 MiB, counted as they arrive) and turns any thrown error into the specified JSON
// error body. Nothing else builds error responses.
import type { Db } from "@/db/client";
import { getDb } from "@/db/client";
import { ApiError, apiError, type ErrorBody } from "@/lib/errors/api-error";
import type { CatalogEntry } from "@/lib/errors/catalog";
import { panelErrors } from "@/lib/errors/panel-errors";
import { PanelError } from "@/lib/errors/panel-error";
import { withAuditActor } from "../resources/audit";
import { authenticate, parseBasic, type Principal } from "../caller/auth";
import { isClientAllowed, PEER_ADDRESS_HEADER, requestClientAddress } from "./client-address";
import { clearedSessionCookie, isHttps, readSessionCookie, resolveSession } from "../caller/session";
import { toJson } from "./ordered-json";

export interface ApiContext {
  req: Request;
  db: Db;
  params: Record<string, string>;
  query: URLSearchParams;
  principal: Principal;
  /** The client's address: the TCP peer, or behind a trusted proxy its X-Forwarded-For (lib/server/http/client-address.ts). */
  clientIp: string;
  /** The request body as a JSON object ({} when empty). */
  body: () => Promise<Record<string, unknown>>;
}

/** What a panel session endpoint sees: the session's account when there is a live one. */
export interface SessionContext extends Omit<ApiContext, "principal"> {
  principal: Principal | null;
  /** The id in the request's session cookie, live or not. */
  sessionId: string | null;
}

export interface ApiResult {
  status: number;
  body: unknown;
  headers?: Record<string, string> | Headers;
}

type RouteContext = { params: Promise<Record<string, string | string[]>> } | undefined;
type Auth = "required" | "none" | "session";

const CALLBACK_RE = /^[A-Za-z_$][A-Za-z0-9_$.]{0,63}$/;
const MAX_BODY_BYTES = 1024 * 1024;
const PANEL_PREFIX = "/api/panel/";
const MUTATING = new Set(["POST", "PUT", "DELETE", "PATCH"]);

/** An answer; the body is a value, never a promise (a forgotten `await` on a service fails to compile). */
export const ok = <T>(
  body: T extends PromiseLike<unknown> ? never : T,
  status = 200,
  headers?: Record<string, string> | Headers,
): ApiResult => ({
  status,
  body,
  headers,
});
export const noContent = (headers?: Record<string, string>): ApiResult => ({ status: 204, body: null, headers });

/** Wraps a handler that needs an authenticated caller (Basic under /api/v1, the session under /api/panel). */
export function withApi(handler: (ctx: ApiContext) => ApiResult | Promise<ApiResult>) {
  return (req: Request, route: RouteContext) => respond(req, route, handler as Handler, "required");
}

/** Wraps a handler that answers without authentication (404.4, 405.1, the OpenAPI document). */
export function withPublicApi(handler: (ctx: Omit<ApiContext, "principal">) => ApiResult | Promise<ApiResult>) {
  return (req: Request, route: RouteContext) => respond(req, route, handler, "none");
}

/** Wraps a panel endpoint about the session itself (sign-in, sign-out): the session is optional. */
export function withPanelSession(handler: (ctx: SessionContext) => ApiResult | Promise<ApiResult>) {
  return (req: Request, route: RouteContext) => respond(req, route, handler, "session");
}

/**
 * Any other path under /api (not /api/v1, not the panel's): the JSON 404.4 instead of Next's HTML page. No client
 * address rule: it serves nothing.
 */
export const unknownApiPath = (): Response =>
  format({ status: 404, body: apiError("endpointNotFound").toBody() }, false, null);

type RouteMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * The handlers of the methods a path does not define, given the ones it does: 405.1 with `Allow` naming those (GET
 * with HEAD), as RFC 9110 wants of a 405. A route exports the ones it lacks, and PATCH, which lib/runtime/server.mjs
 * makes of every method a route cannot export.
 */
export function methodsNotAllowed(...defined: RouteMethod[]) {
  const allow = defined.flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])).join(", ");
  const handler = withPublicApi(() => ({
    status: 405,
    body: apiError("methodNotAllowed").toBody(),
    headers: { allow },
  }));
  return { GET: handler, POST: handler, PUT: handler, DELETE: handler, PATCH: handler };
}

type Handler = (ctx: SessionContext) => ApiResult | Promise<ApiResult>;

/** The panel's own answers (lib/errors/panel-errors.ts says why they are not in the v1 catalog). */
function panelAnswer(error: CatalogEntry, headers?: Record<string, string>, source?: string): ApiResult {
  const body = { code: error.code, message: error.message, category: error.category, ...(source ? { source } : {}) };
  return { status: error.status, body, headers };
}

/** The "sign in again" answer; it also clears a cookie that no longer names a live session. */
export const noSession = (req: Request) =>
  panelAnswer(panelErrors.noSession, { "set-cookie": clearedSessionCookie(isHttps(req)) });

/** The origin the browser used to reach us: scheme of the request, host from the Host header. */
export function ownOrigin(req: Request): string {
  const url = new URL(req.url);
  const proto = req.headers.get("x-forwarded-proto") === "https" ? "https:" : url.protocol;
  return `${proto}//${req.headers.get("host") ?? url.host}`;
}

/** CSRF defence on top of SameSite=Strict: a mutating panel request must say it comes from our own origin. */
export function isSameOrigin(req: Request): boolean {
  if (!MUTATING.has(req.method)) return true;
  const origin = req.headers.get("origin");
  return !!origin && origin === ownOrigin(req);
}

async function respond(req: Request, route: RouteContext, handler: Handler, auth: Auth): Promise<Response> {
  const url = new URL(req.url);
  const panel = url.pathname.startsWith(PANEL_PREFIX);
  const query = url.searchParams;
  // The envelope and JSONP are for API clients; the panel always speaks plain JSON.
  const envelope = !panel && query.get("envelope") === "true";
  const callback = panel ? null : query.get("callback");
  const peer = req.headers.get(PEER_ADDRESS_HEADER);
  let result: ApiResult;
  try {
    if (panel) {
      if (!isSameOrigin(req)) return format(panelAnswer(panelErrors.crossOrigin), false, null);
    } else {
      if (!isClientAllowed(peer)) throw apiError("clientAddressDenied");
      if (callback !== null && !CALLBACK_RE.test(callback)) throw apiError("invalidCallback", "callback");
      if (callback !== null && !jsonpMethod(req)) throw apiError("jsonpGetOnly", "callback");
    }
    const db = getDb();
    const params = flattenParams((await route?.params) ?? {});
    const clientIp = requestClientAddress(req);
    let principal: Principal | null = null;
    let sessionId: string | null = null;
    if (panel && auth !== "none") {
      const cookie = readSessionCookie(req);
      // Several session cookies (one planted by a neighbour site, say): none of them is trusted.
      if (cookie.several && auth === "required") return format(noSession(req), false, null);
      sessionId = cookie.id;
      principal = (await resolveSession(db, sessionId, clientIp))?.principal ?? null;
      if (!principal && auth === "required") return format(noSession(req), false, null);
    } else if (auth !== "none") {
      const creds = parseBasic(req.headers.get("authorization"));
      if (!creds) throw apiError("missingCredentials");
      principal = await authenticate(db, creds, clientIp);
    }
    const body = () => readJsonObject(req);
    const ctx = { req, db, params, query, principal, clientIp, sessionId, body };
    // Who makes the changes of this request, for the audit log the services write (lib/server/resources/audit.ts).
    result = principal
      ? await withAuditActor({ actor: principal.account.email, clientIp, via: panel ? "panel" : "api" }, () =>
          handler(ctx),
        )
      : await handler(ctx);
  } catch (err) {
    if (err instanceof PanelError) return format(panelAnswer(err.entry, undefined, err.source), false, null);
    const error = toApiError(err);
    result = { status: error.status, body: error.toBody(), headers: errorHeaders(error.status, panel) };
  }
  return format(
    result,
    envelope,
    callback !== null && CALLBACK_RE.test(callback) && jsonpMethod(req) ? callback : null,
  );
}

/** JSONP answers GET only; HEAD is a GET without the body (RFC 9110 9.3.2), so it gets GET's status and headers. */
const jsonpMethod = (req: Request) => req.method === "GET" || req.method === "HEAD";

function flattenParams(params: Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) out[k] = Array.isArray(v) ? v.join("/") : v;
  return out;
}

async function readJsonObject(req: Request): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw apiError("invalidJson");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw apiError("bodyNotObject");
  return value as Record<string, unknown>;
}

/**
 * The body as text, counted as it arrives: past 1 MiB (declared or chunked) it stops reading and throws 500.111.
 * The rest is left unread; lib/runtime/server.mjs drains or closes the connection once the answer has gone out.
 */
async function readBody(req: Request): Promise<string> {
  if (Number(req.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw apiError("bodyTooLarge");
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch {
      // The client closed the connection before its body was in (ECONNRESET, "aborted"): the body is cut short, the
      // answer reaches nobody, and it is not a server fault to log as one.
      throw apiError("invalidJson");
    }
    const { done, value } = read;
    if (done) break;
    size += value.byteLength;
    // Not cancelled: cancelling would destroy the socket before the answer could be written.
    if (size > MAX_BODY_BYTES) throw apiError("bodyTooLarge");
    chunks.push(value);
  }
  // JSON travels as UTF-8 (RFC 8259 §8.1): a body in another encoding is refused, where decoding it leniently stored
  // U+FFFD in place of every letter it could not read. The BOM stays, for JSON.parse to refuse as before.
  try {
    return UTF8.decode(Buffer.concat(chunks));
  } catch {
    throw apiError("invalidJson");
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Connection errors of node-postgres: the server refuses, is gone, is shutting down (SQLSTATE 08, 57P0x), or has
 * no connection left (53300, max_connections or the role's limit: other hosts' pools may free one in a moment).
 */
function isDatabaseUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e) return false;
  const code = typeof e.code === "string" ? e.code : "";
  if (
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"].includes(code)
  )
    return true;
  if (/^08/.test(code) || /^57P0[123]$/.test(code) || code === "53300") return true;
  if (typeof e.message === "string" && /^Connection terminated|connection timeout/i.test(e.message)) return true;
  // drizzle wraps the driver's error ("Failed query: ...") with the original as cause.
  return e.cause !== undefined && e.cause !== err && isDatabaseUnreachable(e.cause);
}

/** The driver's SQLSTATE, also under drizzle's wrapper ("Failed query: ...", the original as cause). */
const sqlState = (err: unknown): string | undefined => {
  const e = err as { code?: unknown; cause?: unknown } | null;
  if (typeof e?.code === "string") return e.code;
  return e?.cause && e.cause !== err ? sqlState(e.cause) : undefined;
};

/** Seconds a client should wait before retrying a 503: about the time a failover takes. */
const RETRY_AFTER_SECONDS = "10";

/**
 * A 503 says when to retry; a 401 of /api/v1 names its scheme (RFC 9110 11.6.1: clients that send credentials only
 * when challenged wait for it). Not the panel's 401: a browser would answer it with its own sign-in dialog.
 */
function errorHeaders(status: number, panel: boolean): Record<string, string> | undefined {
  if (status === 503) return { "retry-after": RETRY_AFTER_SECONDS };
  if (status === 401 && !panel) return { "www-authenticate": 'Basic realm="mail-admin", charset="UTF-8"' };
  return undefined;
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") return apiError("databaseBusy");
  if (sqlState(err) === "25006") return apiError("databaseReadOnly");
  if (isDatabaseUnreachable(err)) return apiError("databaseUnavailable");
  console.error("Unexpected error in the API:", err);
  return apiError("unexpected");
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

function format(result: ApiResult, envelope: boolean, callback: string | null): Response {
  if (callback !== null) {
    const payload = `{"status":${result.status},"response":${toJson(result.body ?? null)}}`;
    return new Response(`/**/${callback}(${payload});`, {
      status: 200,
      headers: {
        "content-type": "application/javascript; charset=utf-8",
        "x-content-type-options": "nosniff",
        "cache-control": "no-store",
      },
    });
  }
  if (envelope) {
    return new Response(`{"status":${result.status},"response":${toJson(result.body ?? null)}}`, {
      status: 200,
      headers: JSON_HEADERS,
    });
  }
  // A streamed body (the panel's CSV export) goes out as it is, with its own headers.
  if (result.body instanceof ReadableStream)
    return new Response(result.body, { status: result.status, headers: result.headers });
  if (result.status === 204 || result.body === null) {
    return new Response(null, { status: result.status, headers: result.headers });
  }
  let headers: HeadersInit = JSON_HEADERS;
  if (result.headers instanceof Headers) {
    headers = new Headers(result.headers);
    for (const [k, v] of Object.entries(JSON_HEADERS)) if (!headers.has(k)) headers.set(k, v);
  } else if (result.headers) headers = { ...JSON_HEADERS, ...result.headers };
  return new Response(toJson(result.body), { status: result.status, headers });
}

export type { ErrorBody };
