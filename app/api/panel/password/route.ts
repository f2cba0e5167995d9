// PUT /api/panel/password {current_password, password, password_retype}: the signed-in account changes its own
// password, proving the current one first (lib/server/own-password.ts). Answers the account record, or the
// service's error with `source` naming the field at fault.
import { getDb } from "@/db/client";
import { apiError } from "@/lib/errors/api-error";
import { panelErrors } from "@/lib/errors/panel-errors";
import { changeOwnPassword } from "@/lib/server/own-password";
import { clientIp, json, withPanel } from "@/lib/server/panel-http";
import { replaceSessionDigest } from "@/lib/server/session";

export const PUT = withPanel(async ({ req, session }) => {
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    throw apiError("invalidJson");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw apiError("bodyNotObject");
  const result = changeOwnPassword(getDb(), session!.email, clientIp(req), body as Record<string, unknown>);
  if (result === "wrongCurrent") {
    const { code, message, category, status } = panelErrors.currentPasswordWrong;
    return json({ code, message, category, source: "current_password" }, status);
  }
  // The session keeps signing the service's calls with the new password.
  replaceSessionDigest(session!, (body as { password: string }).password);
  return json(result);
});
export { panelMethodNotAllowed as GET, panelMethodNotAllowed as POST, panelMethodNotAllowed as DELETE, panelMethodNotAllowed as PATCH } from "@/lib/server/panel-fallback";
