// GET /api/status: what the server holds in memory, for operators and the benchmark (bench/ waits for the large
// domains' search tables before measuring). No authentication: it tells counts only, no domain or account.
import { getDb } from "@/db/client";
import { heldTables } from "@/lib/server/held-search";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ status: "ok", search_tables: heldTables(getDb()) }, { headers: { "cache-control": "no-store" } });
}
