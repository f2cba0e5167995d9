// Two-step sign-in of the signed-in account (the "Logowanie dwuetapowe" section of /me; lib/server/caller/totp.ts).
// GET: {enabled, required, recovery_left}. POST: starts a set-up, answering {secret, uri, qr_svg}.
// PUT {code}: confirms it with the app's code, answering the ten recovery codes once. DELETE {code}: switches it off.
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { noContent, ok, withApi, type ApiContext } from "@/lib/server/http/http";
import { beginSetup, confirmSetup, disable, twoFactorState } from "@/lib/server/caller/totp";
import { twoFactorAnswer } from "@/lib/server/http/totp-http";

const me = async ({ db, principal }: ApiContext) => getAccountOrThrow(db, await getDomainOrThrow(db, principal.domain), principal.account.name);
const codeOf = async (ctx: ApiContext) => {
  const raw = (await ctx.body()).code;
  return typeof raw === "string" ? raw : "";
};

export const GET = withApi(async (ctx) => {
  const s = await twoFactorState(ctx.db, await me(ctx));
  return ok({ enabled: s.enabled, required: s.required, recovery_left: s.recoveryLeft }, 200, { "cache-control": "no-store" });
});

export const POST = withApi(async (ctx) => {
  try {
    const setup = await beginSetup(ctx.db, await me(ctx));
    return ok({ secret: setup.secret, uri: setup.uri, qr_svg: setup.qrSvg }, 200, { "cache-control": "no-store" });
  } catch (err) {
    return twoFactorAnswer(err);
  }
});

export const PUT = withApi(async (ctx) => {
  try {
    return ok({ recovery_codes: await confirmSetup(ctx.db, await me(ctx), await codeOf(ctx)) }, 200, { "cache-control": "no-store" });
  } catch (err) {
    return twoFactorAnswer(err);
  }
});

export const DELETE = withApi(async (ctx) => {
  try {
    await disable(ctx.db, await me(ctx), await codeOf(ctx));
    return noContent();
  } catch (err) {
    return twoFactorAnswer(err);
  }
});
export { panelMethodNotAllowed as PATCH } from "@/lib/server/http/panel-fallback";
