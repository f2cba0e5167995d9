// GET /api/v1/mailinglists/<domain>: the paged mailing-list list (domain administrator only).
import { domainForAdmin } from "@/lib/server/caller/access";
import { methodsNotAllowed, ok, withApi } from "@/lib/server/http/http";
import { listMailingLists, parseMailingListQuery } from "@/lib/server/resources/mailing-lists";

export const GET = withApi(async ({ db, principal, params, query }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  return ok(await listMailingLists(db, domain, parseMailingListQuery(query, domain)));
});

export const { POST, PUT, DELETE, PATCH } = methodsNotAllowed("GET");
