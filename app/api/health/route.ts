// GET /api/health: liveness for load balancers and monitoring; no database, no authentication. The benchmark
// (bench/) also uses it as the cost of an empty route handler in this server.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
}
