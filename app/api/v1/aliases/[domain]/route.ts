// GET /api/v1/aliases/<domain>: the paged alias list (domain administrator only).
import { domainForAdmin } from "@/lib/server/caller/access";
import { listAliases } from "@/lib/server/resources/aliases";
import { methodNotAllowed, ok, withApi } from "@/lib/server/http/http";

export const GET = withApi(({ db, principal, params, query }) =>
  ok(listAliases(db, domainForAdmin(db, principal, params.domain!), query)),
);

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as DELETE, methodNotAllowed as PATCH };
