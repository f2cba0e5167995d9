// GET, POST /api/v1/mailinglists/<domain>/<name>/moderation (domain administrator only): the list's held posts
// and bounces; POST {"approve": [ids], "reject": [ids]} decides held posts (docs/lists.md).
import { domainForAdmin } from "@/lib/server/caller/access";
import { methodsNotAllowed, ok, withApi } from "@/lib/server/http/http";
import { listModeration, moderateHeldPosts } from "@/lib/server/resources/list-moderation";
import { parseNames } from "@/lib/server/resources/names";

export const GET = withApi(async ({ db, principal, params }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "list", false);
  return ok(await listModeration(db, domain, name!));
});

export const POST = withApi(async ({ db, principal, params, body }) => {
  const domain = await domainForAdmin(db, principal, params.domain!);
  const [name] = parseNames(params.name!, "list", false);
  await moderateHeldPosts(db, domain, name!, await body());
  return ok(await listModeration(db, domain, name!));
});

export const { PUT, DELETE, PATCH } = methodsNotAllowed("GET", "POST");
