// GET /api/panel/mail/dns/<domain>: the DNS records the domain needs, each checked against DNS now (postmaster).
import { ok, withApi } from "@/lib/server/http/http";
import { domainDnsStatus } from "@/lib/server/resources/mail-status";

export const GET = withApi(async ({ db, principal, params }) =>
  ok(await domainDnsStatus(db, principal, params.domain!)),
);
export * from "@/lib/server/http/read-only-route";
