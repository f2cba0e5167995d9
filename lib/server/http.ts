import "server-only";
// The one wrapper of every /api/v1 handler: client address rule, envelope/JSONP, authentication, body parsing,
// and the translation of any thrown error into the specified JSON error body. Nothing else builds error responses.
import type { Db } from "@/db/client";
import { getDb } from "@/db/client";
import { ApiError, apiError, type ErrorBody } from "@/lib/errors/api-error";
import { authenticate, parseBasic, type Principal } from "./auth";
import { isClientAllowed, normalizeIp, PEER_ADDRESS_HEADER } from "./client-address";
import { isPanelCall } from "./panel-call";

export interface ApiContext {
  req: Request;
  db: Db;
  params: Record<string, string>;
  query: URLSearchParams;
  principal: Principal;
  /** The request body as a JSON object ({} when empty). */
  body: () => Promise<Record<string, unknown>>;
}

export interface ApiResult {
  status: number;
  body: unknown;
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };

const CALLBACK_RE = /^[A-Za-z_$][A-Za-z0-9_$.]{0,63}$/;
const MAX_BODY_BYTES = 1024 * 1024;

export const ok = (body: unknown, status = 200): ApiResult => ({ status, body });
export const noContent = (): ApiResult => ({ status: 204, body: null });

/** Wraps a handler that needs an authenticated caller. */
export function withApi(handler: (ctx: ApiContext) => ApiResult | Promise<ApiResult>) {
  return (req: Request, route: RouteContext) => respond(req, route, handler, true);
}

/** Wraps a handler that answers without authentication (404.4, 405.1, the OpenAPI document). */
export function withPublicApi(handler: (ctx: Omit<ApiContext, "principal">) => ApiResult | Promise<ApiResult>) {
  return (req: Request, route: RouteContext) => respond(req, route, handler, false);
}

/** Handler for a method the path does not define. */
export const methodNotAllowed = withPublicApi(() => {
  throw apiError("methodNotAllowed");
});

async function respond(
  req: Request,
  route: RouteContext,
  handler: (ctx: ApiContext) => ApiResult | Promise<ApiResult>,
  needsAuth: boolean,
): Promise<Response> {
  const url = new URL(req.url);
  const query = url.searchParams;
  const envelope = query.get("envelope") === "true";
  const callback = query.get("callback");
  let result: ApiResult;
  try {
    const peer = req.headers.get(PEER_ADDRESS_HEADER);
    // The panel's in-process calls come from signed-in browser users, to whom the client address rule does not apply.
    if (!isPanelCall(req) && !isClientAllowed(peer)) throw apiError("clientAddressDenied");
    if (callback !== null && !CALLBACK_RE.test(callback)) throw apiError("invalidCallback", "callback");
    if (callback !== null && req.method !== "GET") throw apiError("jsonpGetOnly", "callback");
    const db = getDb();
    const params = flattenParams((await route?.params) ?? {});
    let principal: Principal | undefined;
    if (needsAuth) {
      const creds = parseBasic(req.headers.get("authorization"));
      if (!creds) throw apiError("missingCredentials");
      principal = authenticate(db, creds, normalizeIp(peer ?? ""));
    }
    result = await handler({ req, db, params, query, principal: principal!, body: () => readJsonObject(req) });
  } catch (err) {
    const error = toApiError(err);
    result = { status: error.status, body: error.toBody() };
  }
  return format(result, envelope, callback !== null && CALLBACK_RE.test(callback) && req.method === "GET" ? callback : null);
}

function flattenParams(params: Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) out[k] = Array.isArray(v) ? v.join("/") : v;
  return out;
}

async function readJsonObject(req: Request): Promise<Record<string, unknown>> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw apiError("bodyTooLarge");
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw apiError("bodyTooLarge");
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

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") return apiError("databaseBusy");
  console.error("Unexpected error in /api/v1:", err);
  return apiError("unexpected");
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

function format(result: ApiResult, envelope: boolean, callback: string | null): Response {
  if (callback !== null) {
    const payload = JSON.stringify({ status: result.status, response: result.body ?? null });
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
    return new Response(JSON.stringify({ status: result.status, response: result.body ?? null }), {
      status: 200,
      headers: JSON_HEADERS,
    });
  }
  if (result.status === 204 || result.body === null) return new Response(null, { status: result.status });
  return new Response(JSON.stringify(result.body), { status: result.status, headers: JSON_HEADERS });
}

export type { ErrorBody };
