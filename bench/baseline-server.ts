// The bench's baseline: a bare node:http server (no framework) answering GET /api/v1/emails/<domain>/<name> with
// the same work as the real route: client address rule, Basic auth through the same authenticate() (scrypt check
// with its verified-credentials cache, lockout gate, last-login touch), the same prepared SQLite queries and the
// same JSON record. What it lacks is Next.js: the gap between the two is the framework's cost.
// Run: node --conditions=react-server --import tsx bench/baseline-server.ts (PORT, DATABASE_PATH).
import http from "node:http";
import { getDb } from "@/db/client";
import { ApiError, apiError } from "@/lib/errors/api-error";
import { domainForAccounts } from "@/lib/server/caller/access";
import { getAccountRecordOrThrow } from "@/lib/server/resources/accounts";
import { authenticate, parseBasic } from "@/lib/server/caller/auth";
import { isClientAllowed, normalizeIp } from "@/lib/server/http/client-address";

const port = Number(process.env.PORT ?? 3599);
const ROUTE = /^\/api\/v1\/emails\/([^/?]+)\/([^/?]+)(?:\?.*)?$/;
const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

async function answer(req: http.IncomingMessage): Promise<{ status: number; body: unknown }> {
  try {
    const peer = req.socket.remoteAddress ?? "";
    if (!isClientAllowed(peer)) throw apiError("clientAddressDenied");
    const match = req.method === "GET" ? ROUTE.exec(req.url ?? "") : null;
    if (!match) throw apiError("endpointNotFound");
    const [domainName, name] = [decodeURIComponent(match[1]!), decodeURIComponent(match[2]!)];
    const db = getDb();
    const creds = parseBasic(req.headers.authorization ?? null);
    if (!creds) throw apiError("missingCredentials");
    const principal = await authenticate(db, creds, normalizeIp(peer));
    const domain = await domainForAccounts(db, principal, domainName, [name]);
    return { status: 200, body: await getAccountRecordOrThrow(db, domain, name) };
  } catch (err) {
    const error = err instanceof ApiError ? err : apiError("unexpected");
    return { status: error.status, body: error.toBody() };
  }
}

getDb();
const server = http.createServer((req, res) => {
  void answer(req).then(({ status, body }) => res.writeHead(status, JSON_HEADERS).end(JSON.stringify(body)));
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => console.log(`baseline listening on http://127.0.0.1:${port}`));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
