// GET, PUT /api/v1/domains/<domain>: the domain record (domain administrator only).
import { domainForAdmin } from "@/lib/server/caller/access";
import { toDomainRecord, updateDomain } from "@/lib/server/resources/domains";
import { methodsNotAllowed, ok, withApi } from "@/lib/server/http/http";

export const GET = withApi(async ({ db, principal, params }) =>
  ok(await toDomainRecord(db, await domainForAdmin(db, principal, params.domain!))),
);

export const PUT = withApi(async ({ db, principal, params, body }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  return ok(await toDomainRecord(db, await updateDomain(db, domain, await body())));
});

export const { POST, DELETE, PATCH } = methodsNotAllowed("GET", "PUT");
