// GET /api/v1/emails/<domain>: the paged account list (domain administrator only).
import { domainForAdmin } from "@/lib/server/caller/access";
import { listAccounts } from "@/lib/server/resources/accounts";
import { methodNotAllowed, ok, withApi } from "@/lib/server/http/http";

export const GET = withApi(({ db, principal, params, query }) =>
  ok(listAccounts(db, domainForAdmin(db, principal, params.domain!), query)),
);

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as DELETE, methodNotAllowed as PATCH };
