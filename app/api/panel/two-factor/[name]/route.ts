// The domain administrator's view of another account's sign-in (the account page of the panel):
// GET: {two_factor, password_locked_for, code_locked_for} (seconds left of each lock, 0 when none).
// DELETE: removes the account's second step (an owner who lost the phone signs in with the password alone, and may
// set it up again); audited. Its own second step the administrator switches off on /me, with password and code.
import { apiError } from "@/lib/errors/api-error";
import { domainForAdmin } from "@/lib/server/caller/access";
import { removeSecondStep, signInState } from "@/lib/server/caller/totp";
import { noContent, ok, withApi, type ApiContext } from "@/lib/server/http/http";
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import { parseNames } from "@/lib/server/resources/names";

async function account(ctx: ApiContext) {
  const domain = await domainForAdmin(ctx.db, ctx.principal, ctx.principal.domain);
  const [name] = parseNames((ctx.params.name ?? "").toLowerCase(), "account", false);
  return getAccountOrThrow(ctx.db, domain, name!);
}

export const GET = withApi(async (ctx) =>
  ok(await signInState(ctx.db, await account(ctx)), 200, { "cache-control": "no-store" }),
);

export const DELETE = withApi(async (ctx) => {
  const target = await account(ctx);
  if (target.id === ctx.principal.account.id) throw apiError("forbidden");
  await removeSecondStep(ctx.db, target);
  return noContent();
});
export {
  panelMethodNotAllowed as POST,
  panelMethodNotAllowed as PUT,
  panelMethodNotAllowed as PATCH,
} from "@/lib/server/http/panel-fallback";
