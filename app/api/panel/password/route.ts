// PUT /api/panel/password {current_password, password, password_retype}: the signed-in account changes its own
// password, proving the current one first (lib/server/caller/own-password.ts). Answers the account record, or the
// service's error with `source` naming the field at fault (the current password given again as the new one is refused). The session that made the change stays signed in; the
// account's other sessions end.
import { panelErrors } from "@/lib/errors/panel-errors";
import { ok, withApi } from "@/lib/server/http/http";
import { changeOwnPassword } from "@/lib/server/caller/own-password";
import { readDeviceToken } from "@/lib/server/caller/device-cookie";
import { isHttps } from "@/lib/server/caller/session";

export const PUT = withApi(async ({ req, db, principal, clientIp, body }) => {
  const device = readDeviceToken(req, isHttps(req));
  const result = await changeOwnPassword(
    db,
    principal.account.email,
    clientIp,
    await body(),
    principal.sessionIdHash,
    device,
  );
  if (result === "wrongCurrent") {
    const { code, message, category, status } = panelErrors.currentPasswordWrong;
    return { status, body: { code, message, category, source: "current_password" } };
  }
  if (result === "unchanged") {
    const { code, message, category, status } = panelErrors.passwordUnchanged;
    return { status, body: { code, message, category, source: "password" } };
  }
  return ok(result);
});
export {
  panelMethodNotAllowed as GET,
  panelMethodNotAllowed as POST,
  panelMethodNotAllowed as DELETE,
  panelMethodNotAllowed as PATCH,
} from "@/lib/server/http/panel-fallback";
