// GET, POST, PUT, DELETE /api/v1/mailinglists/<domain>/<name>[,<name>...] (domain administrator only).
import { domainForAdmin } from "@/lib/server/access";
import { methodNotAllowed, noContent, ok, withApi } from "@/lib/server/http";
import {
  createMailingList,
  deleteMailingLists,
  getListOrThrow,
  listRecord,
  updateMailingLists,
} from "@/lib/server/mailing-lists";
import { parseNames } from "@/lib/server/names";

export const GET = withApi(({ db, principal, params }) => {
  const domain = domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "list", false);
  return ok(listRecord(db, domain, getListOrThrow(db, domain, name!)));
});

export const POST = withApi(async ({ db, principal, params, body }) => {
  const domain = domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "list", false);
  return ok(listRecord(db, domain, createMailingList(db, domain, name!, await body())), 201);
});

export const PUT = withApi(async ({ db, principal, params, body }) => {
  const domain = domainForAdmin(db, principal, params.domain!);
  const names = parseNames(params.name!, "list");
  const updated = await updateMailingLists(db, domain, names, await body());
  return names.length === 1 ? ok(updated[0]!.record()) : noContent();
});

export const DELETE = withApi(({ db, principal, params }) => {
  const domain = domainForAdmin(db, principal, params.domain!);
  deleteMailingLists(db, domain, parseNames(params.name!, "list"));
  return noContent();
});

export { methodNotAllowed as PATCH };
