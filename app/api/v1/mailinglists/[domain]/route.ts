// GET /api/v1/mailinglists/<domain>: the paged mailing-list list (domain administrator only).
import { domainForAdmin } from "@/lib/server/caller/access";
import { methodNotAllowed, ok, withApi } from "@/lib/server/http/http";
import { listMailingLists } from "@/lib/server/resources/mailing-lists";

export const GET = withApi(({ db, principal, params, query }) =>
  ok(listMailingLists(db, domainForAdmin(db, principal, params.domain!), query)),
);

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as DELETE, methodNotAllowed as PATCH };
