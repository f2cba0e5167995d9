// Two-step sign-in of the signed-in account (the "Logowanie dwuetapowe" section of /me; lib/server/caller/totp.ts).
// GET: {enabled, required, recovery_left, configured}. POST {current_password}: starts a set-up, answering
// {secret, uri, qr_svg}. PUT {code}: confirms it with the app's code, answering the ten recovery codes once.
// DELETE {current_password, code}: switches it off. Turning it on or off asks for the password (a stolen session
// must not be enough) and ends the account's other sessions.
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { noContent, ok, withApi, type ApiContext, type ApiResult } from "@/lib/server/http/http";
import {
  beginSetup,
  confirmSetup,
  disable,
  isConfigured,
  twoFactorState,
  TwoFactorError,
} from "@/lib/server/caller/totp";
import { proveCurrentPassword } from "@/lib/server/caller/own-password";
import { readDeviceToken } from "@/lib/server/caller/device-cookie";
import { endSessions, isHttps } from "@/lib/server/caller/session";
import { twoFactorAnswer } from "@/lib/server/http/totp-http";
import { panelErrors } from "@/lib/errors/panel-errors";

const me = async ({ db, principal }: ApiContext) =>
  getAccountOrThrow(db, await getDomainOrThrow(db, principal.domain), principal.account.name);
const codeOf = (body: Record<string, unknown>) => (typeof body.code === "string" ? body.code : "");
/** Null when the body's current_password is the account's password; else the 500.307 answer. */
async function wrongPassword(ctx: ApiContext, body: Record<string, unknown>): Promise<ApiResult | null> {
  const device = readDeviceToken(ctx.req, isHttps(ctx.req));
  const email = ctx.principal.account.email;
  const proven = await proveCurrentPassword(ctx.db, email, ctx.clientIp, body.current_password, device);
  if (proven !== "wrongCurrent") return null;
  const { code, message, category, status } = panelErrors.currentPasswordWrong;
  return { status, body: { code, message, category, source: "current_password" } };
}
const endOtherSessions = (ctx: ApiContext) =>
  endSessions(ctx.db, ctx.principal.account.id, ctx.principal.sessionIdHash ?? "");

export const GET = withApi(async (ctx) => {
  const s = await twoFactorState(ctx.db, await me(ctx));
  return ok(
    { enabled: s.enabled, required: s.required, recovery_left: s.recoveryLeft, configured: isConfigured() },
    200,
    { "cache-control": "no-store" },
  );
});

export const POST = withApi(async (ctx) => {
  try {
    if (!isConfigured()) return twoFactorAnswer(new TwoFactorError("notConfigured"));
    const refused = await wrongPassword(ctx, await ctx.body());
    if (refused) return refused;
    const setup = await beginSetup(ctx.db, await me(ctx));
    return ok({ secret: setup.secret, uri: setup.uri, qr_svg: setup.qrSvg }, 200, { "cache-control": "no-store" });
  } catch (err) {
    return twoFactorAnswer(err);
  }
});

export const PUT = withApi(async (ctx) => {
  try {
    const recovery = await confirmSetup(ctx.db, await me(ctx), codeOf(await ctx.body()));
    await endOtherSessions(ctx);
    return ok({ recovery_codes: recovery }, 200, { "cache-control": "no-store" });
  } catch (err) {
    return twoFactorAnswer(err);
  }
});

export const DELETE = withApi(async (ctx) => {
  try {
    const body = await ctx.body();
    const refused = await wrongPassword(ctx, body);
    if (refused) return refused;
    await disable(ctx.db, await me(ctx), codeOf(body), ctx.clientIp);
    await endOtherSessions(ctx);
    return noContent();
  } catch (err) {
    return twoFactorAnswer(err);
  }
});
export { panelMethodNotAllowed as PATCH } from "@/lib/server/http/panel-fallback";
