// GET /api/panel/taken-names?names=a,b,c: which of the names (at most 1000) the postmaster's domain already holds,
// as an account, alias or list: {"taken": [{"name", "taken_by"}]}. Bulk create's preview asks before anything is
// sent, so a row whose name is taken is marked there instead of failing after the others were created.
import { domainForAdmin } from "@/lib/server/caller/access";
import { ok, withApi } from "@/lib/server/http/http";
import { takenNames } from "@/lib/server/resources/names";

export const GET = withApi(async ({ db, principal, query }) => {
  const domain = await domainForAdmin(db, principal, principal.domain);
  return ok({ taken: await takenNames(db, domain.id, (query.get("names") ?? "").split(",")) });
});
export * from "@/lib/server/http/read-only-route";
