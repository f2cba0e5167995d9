// GET /api/v1/aliases/<domain>: the paged alias list (domain administrator only).
import { domainForAdmin } from "@/lib/server/caller/access";
import { listAliases, parseAliasListQuery } from "@/lib/server/resources/aliases";
import { methodsNotAllowed, ok, withApi } from "@/lib/server/http/http";

export const GET = withApi(async ({ db, principal, params, query }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  return ok(await listAliases(db, domain, parseAliasListQuery(query, domain)));
});

export const { POST, PUT, DELETE, PATCH } = methodsNotAllowed("GET");
