// GET /api/v1/aliases/<domain>: the paged alias list (domain administrator only).
import { domainForAdmin } from "@/lib/server/access";
import { listAliases } from "@/lib/server/aliases";
import { methodNotAllowed, ok, withApi } from "@/lib/server/http";

export const GET = withApi(({ db, principal, params, query }) =>
  ok(listAliases(db, domainForAdmin(db, principal, params.domain!), query)),
);

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as DELETE, methodNotAllowed as PATCH };
