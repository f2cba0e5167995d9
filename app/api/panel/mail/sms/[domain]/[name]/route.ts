// GET /api/panel/mail/sms/<domain>/<name>: the account's last SMS notifications, failures included (postmaster).
import { ok, withApi } from "@/lib/server/http/http";
import { smsNotifications } from "@/lib/server/resources/mail-status";

export const GET = withApi(async ({ db, principal, params }) =>
  ok(await smsNotifications(db, principal, params.domain!, params.name!)),
);
export * from "@/lib/server/http/read-only-route";
