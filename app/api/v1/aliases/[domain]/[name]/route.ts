// GET, POST, PUT, DELETE /api/v1/aliases/<domain>/<name>[,<name>...] (domain administrator only).
import { domainForAdmin } from "@/lib/server/caller/access";
import {
  createAlias,
  deleteAliases,
  getAliasOrThrow,
  toAliasRecord,
  updateAliases,
} from "@/lib/server/resources/aliases";
import { methodsNotAllowed, noContent, ok, withApi } from "@/lib/server/http/http";
import { nameSegment, parseNames, writeNames } from "@/lib/server/resources/names";

export const GET = withApi(async ({ db, principal, params }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "account", false);
  return ok(toAliasRecord(await getAliasOrThrow(db, domain, name!), domain));
});

export const POST = withApi(async ({ db, principal, params, body }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "account", false);
  return ok(toAliasRecord(await createAlias(db, domain, name!, await body()), domain), 201);
});

export const PUT = withApi(async ({ db, principal, params, body }) => {
  const domain = await domainForAdmin(db, principal, params.domain!, params.name!.split(","));
  const segment = nameSegment(params.name!, "account");
  const input = await body();
  const rows = await writeNames(db, segment, (db, names) => updateAliases(db, domain, names, input));
  return segment.names.length === 1 ? ok(toAliasRecord(rows[0]!, domain)) : noContent();
});

export const DELETE = withApi(async ({ db, principal, params }) => {
  const domain = await domainForAdmin(db, principal, params.domain!, params.name!.split(","));
  await writeNames(db, nameSegment(params.name!, "account"), (db, names) => deleteAliases(db, domain, names));
  return noContent();
});

export const { PATCH } = methodsNotAllowed("GET", "POST", "PUT", "DELETE");
