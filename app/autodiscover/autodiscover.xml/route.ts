// POST /autodiscover/autodiscover.xml: Outlook's POX autodiscover (lib/server/resources/client-setup.ts).
import { getDb } from "@/db/client";
import { autodiscover } from "@/lib/server/resources/client-setup";

const MAX_REQUEST = 64 * 1024;

export async function POST(req: Request): Promise<Response> {
  const text =
    Number(req.headers.get("content-length") ?? 0) > MAX_REQUEST ? "" : (await req.text()).slice(0, MAX_REQUEST);
  const answer = await autodiscover(getDb(), text);
  return new Response(answer.xml, {
    status: answer.status,
    headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "no-store" },
  });
}

export function GET(): Response {
  return new Response("Autodiscover answers POST requests.\n", {
    status: 405,
    headers: { allow: "POST", "content-type": "text/plain; charset=utf-8" },
  });
}
