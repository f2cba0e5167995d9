// GET, POST, PUT, DELETE /api/v1/mailinglists/<domain>/<name>[,<name>...] (domain administrator only).
import { domainForAdmin } from "@/lib/server/caller/access";
import { methodsNotAllowed, noContent, ok, withApi } from "@/lib/server/http/http";
import {
  createMailingList,
  deleteMailingLists,
  getListOrThrow,
  listRecord,
  updateMailingLists,
} from "@/lib/server/resources/mailing-lists";
import { nameSegment, parseNames, writeNames } from "@/lib/server/resources/names";

export const GET = withApi(async ({ db, principal, params }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "list", false);
  return ok(await listRecord(db, domain, await getListOrThrow(db, domain, name!)));
});

// The panel's session (not a program with Basic credentials) gets the panel's rules: lib/server/resources/mailing-lists.ts.
const rulesOf = (principal: { sessionIdHash?: string }) => ({
  moderatorRequired: principal.sessionIdHash !== undefined,
});

export const POST = withApi(async ({ db, principal, params, body }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "list", false);
  return ok(
    await listRecord(db, domain, await createMailingList(db, domain, name!, await body(), rulesOf(principal))),
    201,
  );
});

export const PUT = withApi(async ({ db, principal, params, body }) => {
  const domain = await domainForAdmin(db, principal, params.domain!, params.name!.split(","));
  const segment = nameSegment(params.name!, "list");
  const input = await body();
  const updated = await writeNames(db, segment, (db, names) =>
    updateMailingLists(db, domain, names, input, rulesOf(principal)),
  );
  return segment.names.length === 1 ? ok(await updated[0]!.record()) : noContent();
});

export const DELETE = withApi(async ({ db, principal, params }) => {
  const domain = await domainForAdmin(db, principal, params.domain!, params.name!.split(","));
  await writeNames(db, nameSegment(params.name!, "list"), (db, names) => deleteMailingLists(db, domain, names));
  return noContent();
});

export const { PATCH } = methodsNotAllowed("GET", "POST", "PUT", "DELETE");
