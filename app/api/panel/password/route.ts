// PUT /api/panel/password {current_password, password, password_retype}: the signed-in account changes its own
// password, proving the current one first (lib/server/own-password.ts). Answers the account record, or the
// service's error with `source` naming the field at fault.
import { getDb } from "@/db/client";
import { panelErrors } from "@/lib/errors/panel-errors";
import { changeOwnPassword, readPasswordChange } from "@/lib/server/own-password";
import { clientIp, json, withPanel } from "@/lib/server/panel-http";
import { replaceSessionDigest } from "@/lib/server/session";

export const PUT = withPanel(async ({ req, session }) => {
  const body = await readPasswordChange(req);
  const result = changeOwnPassword(getDb(), session!.email, clientIp(req), body);
  if (result === "wrongCurrent") {
    const { code, message, category, status } = panelErrors.currentPasswordWrong;
    return json({ code, message, category, source: "current_password" }, status);
  }
  // The session keeps signing the service's calls with the new password.
  replaceSessionDigest(session!, String(body.password));
  return json(result);
});
export { panelMethodNotAllowed as GET, panelMethodNotAllowed as POST, panelMethodNotAllowed as DELETE, panelMethodNotAllowed as PATCH } from "@/lib/server/panel-fallback";
