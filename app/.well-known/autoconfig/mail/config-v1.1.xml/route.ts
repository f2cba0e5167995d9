// GET /.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=<address>: Thunderbird's autoconfig document for a
// hosted domain (the address's, else the host asked); 404 for any other, so that the client tries its next source.
import { getDb } from "@/db/client";
import { autoconfigDomain, autoconfigXml, hostedDomain } from "@/lib/server/resources/client-setup";

export async function GET(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const domain = await hostedDomain(
    getDb(),
    autoconfigDomain(req.headers.get("host"), url.searchParams.get("emailaddress")),
  );
  if (!domain)
    return new Response("No mail configuration for this domain.\n", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  return new Response(autoconfigXml(domain), {
    headers: {
      "content-type": "application/xml; charset=utf-8",
      "cache-control": "no-store",
      "access-control-allow-origin": "*",
    },
  });
}
