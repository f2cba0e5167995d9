// GET /api/panel/aliases-reaching?names=a,b: the postmaster's domain's aliases that go when these accounts are deleted,
// directly or through another alias that goes: {"aliases": ["biuro@d", ...]}. The delete dialog names them; the list
// comes from the rule the delete itself applies (removeAliasesTo).
import { domainForAdmin } from "@/lib/server/caller/access";
import { ok, withApi } from "@/lib/server/http/http";
import { aliasesReaching } from "@/lib/server/resources/aliases";
import { parseNames } from "@/lib/server/resources/names";

export const GET = withApi(async ({ db, principal, query }) => {
  const domain = await domainForAdmin(db, principal, principal.domain);
  const names = parseNames(query.get("names") ?? "", "account");
  const reached = await aliasesReaching(
    db,
    domain,
    names.map((n) => `${n}@${domain.name}`),
  );
  return ok({ aliases: reached.map((a) => a.email).sort() });
});
export * from "@/lib/server/http/read-only-route";
