// GET /.well-known/mta-sts.txt on mta-sts.<domain>: the MTA-STS policy (RFC 8461) when MTA_STS_MODE is on.
import { mtaStsPolicy } from "@/lib/server/resources/dns-records";

export function GET(): Response {
  const policy = mtaStsPolicy();
  if (!policy)
    return new Response("MTA-STS is not enabled.\n", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  return new Response(policy, {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "max-age=3600" },
  });
}
