// GET, POST, PUT, DELETE /api/v1/emails/<domain>/<name>[,<name>...]: one account, or several for PUT and DELETE.
import { domainForAccounts, domainForAdmin } from "@/lib/server/caller/access";
import {
  accountRecord,
  createAccount,
  deleteAccounts,
  getAccountRecordOrThrow,
  prehashPassword,
  updateAccounts,
} from "@/lib/server/resources/accounts";
import { methodsNotAllowed, noContent, ok, withApi } from "@/lib/server/http/http";
import { nameSegment, parseNames, writeNames } from "@/lib/server/resources/names";

export const GET = withApi(async ({ db, principal, params }) => {
  const domain = await domainForAccounts(db, principal, params.domain!, params.name!.split(","));
  const [name] = parseNames(params.name!, "account", false);
  return ok(await getAccountRecordOrThrow(db, domain, name!));
});

export const POST = withApi(async ({ db, principal, params, body }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "account", false);
  const input = await body();
  const row = await createAccount(db, domain, name!, input, await prehashPassword(input));
  return ok(await accountRecord(db, domain, row), 201);
});

export const PUT = withApi(async ({ db, principal, params, body }) => {
  const domain = await domainForAccounts(db, principal, params.domain!, params.name!.split(","));
  const segment = nameSegment(params.name!, "account");
  const input = await body();
  const prehashed = await prehashPassword(input);
  const rows = await writeNames(db, segment, (db, names) =>
    updateAccounts(db, principal, domain, names, input, { prehashed }),
  );
  return segment.names.length === 1 ? ok(await accountRecord(db, domain, rows[0]!)) : noContent();
});

export const DELETE = withApi(async ({ db, principal, params }) => {
  const domain = await domainForAdmin(db, principal, params.domain!, params.name!.split(","));
  await writeNames(db, nameSegment(params.name!, "account"), (db, names) => deleteAccounts(db, domain, names));
  return noContent();
});

export const { PATCH } = methodsNotAllowed("GET", "POST", "PUT", "DELETE");
