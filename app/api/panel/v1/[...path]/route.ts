// GET, POST, PUT, DELETE /api/panel/v1/<v1 path>: the v1 API for the signed-in panel user (backend-for-frontend).
// Matches the path to one of the v1 route modules and calls its handler in process (lib/server/panel-proxy.ts).
import * as alias from "@/app/api/v1/aliases/[domain]/[name]/route";
import * as aliasList from "@/app/api/v1/aliases/[domain]/route";
import * as domain from "@/app/api/v1/domains/[domain]/route";
import * as account from "@/app/api/v1/emails/[domain]/[name]/route";
import * as accountList from "@/app/api/v1/emails/[domain]/route";
import * as list from "@/app/api/v1/mailinglists/[domain]/[name]/route";
import * as listList from "@/app/api/v1/mailinglists/[domain]/route";
import * as openapi from "@/app/api/v1/openapi.json/route";
import { apiError } from "@/lib/errors/api-error";
import { methodNotAllowed, withPublicApi } from "@/lib/server/http";
import { withPanel } from "@/lib/server/panel-http";
import { callV1, type V1Handler } from "@/lib/server/panel-proxy";

type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "DELETE" | "PATCH", V1Handler>>;

/** v1 paths as segment patterns; ":x" binds a parameter. */
const ROUTES: [string[], RouteModule][] = [
  [["domains", ":domain"], domain],
  [["emails", ":domain"], accountList],
  [["emails", ":domain", ":name"], account],
  [["aliases", ":domain"], aliasList],
  [["aliases", ":domain", ":name"], alias],
  [["mailinglists", ":domain"], listList],
  [["mailinglists", ":domain", ":name"], list],
  [["openapi.json"], openapi],
];

// The v1 answer for a path it does not define (what app/api/v1/[[...path]] answers).
const endpointNotFound = withPublicApi(() => {
  throw apiError("endpointNotFound");
}) as V1Handler;
const notFound: RouteModule = { GET: endpointNotFound, POST: endpointNotFound, PUT: endpointNotFound, DELETE: endpointNotFound, PATCH: endpointNotFound };

function match(path: string[]): { module: RouteModule; params: Record<string, string> } {
  for (const [pattern, module] of ROUTES) {
    if (pattern.length !== path.length) continue;
    const params: Record<string, string> = {};
    if (pattern.every((p, i) => (p.startsWith(":") ? ((params[p.slice(1)] = path[i]!), path[i] !== "") : p === path[i]))) {
      return { module, params };
    }
  }
  return { module: notFound, params: {} };
}

const dispatch = withPanel(({ req, session, params }) => {
  const path = ([] as string[]).concat(params.path ?? []);
  const { module, params: v1Params } = match(path);
  const handler = module[req.method as keyof RouteModule] ?? (methodNotAllowed);
  return callV1(req, session!, path, handler, v1Params);
});

export { dispatch as GET, dispatch as POST, dispatch as PUT, dispatch as DELETE, dispatch as PATCH };
