// GET /api/v1/emails/<domain>/<name>/lists (domain administrator only): the domain's lists the account is on, as
// subscriber or moderator; deleting the account takes it off them (the panel's delete dialog names them).
import { domainForAdmin } from "@/lib/server/caller/access";
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import { methodsNotAllowed, ok, withApi } from "@/lib/server/http/http";
import { accountListMemberships } from "@/lib/server/resources/list-memberships";
import { parseNames } from "@/lib/server/resources/names";

export const GET = withApi(async ({ db, principal, params }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "account", false);
  return ok(await accountListMemberships(db, domain, (await getAccountOrThrow(db, domain, name!)).email));
});

export const { POST, PUT, DELETE, PATCH } = methodsNotAllowed("GET");
