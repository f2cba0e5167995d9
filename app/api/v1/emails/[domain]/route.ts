// GET /api/v1/emails/<domain>: the paged account list (domain administrator only).
import { domainForAdmin } from "@/lib/server/caller/access";
import { listAccounts, parseAccountListQuery } from "@/lib/server/resources/accounts";
import { methodsNotAllowed, ok, withApi } from "@/lib/server/http/http";

export const GET = withApi(async ({ db, principal, params, query }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  return ok(await listAccounts(db, domain, parseAccountListQuery(query, domain)));
});

export const { POST, PUT, DELETE, PATCH } = methodsNotAllowed("GET");
