// GET /api/panel/forwarders/<domain>/<name> (domain administrator only): the addresses of the customer's accounts
// that forward to this account; deleting it takes it out of their forwards (the panel's delete dialog names them).
import { domainForAdmin } from "@/lib/server/caller/access";
import { forwardersOf, getAccountOrThrow } from "@/lib/server/resources/accounts";
import { ok, withApi } from "@/lib/server/http/http";
import { parseNames } from "@/lib/server/resources/names";

export const GET = withApi(async ({ db, principal, params }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "account", false);
  const account = await getAccountOrThrow(db, domain, name!);
  return ok((await forwardersOf(db, domain, [account.email])).map((f) => f.account.email));
});
export * from "@/lib/server/http/read-only-route";
