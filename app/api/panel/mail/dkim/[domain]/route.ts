// GET /api/panel/mail/dkim/<domain>: the domain's DKIM TXT record and whether DNS holds it (postmaster).
import { ok, withApi } from "@/lib/server/http/http";
import { dkimStatus } from "@/lib/server/resources/mail-status";

export const GET = withApi(async ({ db, principal, params }) => ok(await dkimStatus(db, principal, params.domain!)));
export * from "@/lib/server/http/read-only-route";
