// `npm start`: one worker process per CPU core (WORKERS overrides it; WORKERS=1 runs a single worker), each serving
// Next's production build behind a tiny http server that tells route handlers the TCP peer address. Route handlers
// cannot see the socket, and Next passes client-sent forwarding headers through; so every incoming value of the
// trusted header is overwritten from the socket here, in every worker, and a client cannot choose it.
// The workers share the listening port (node:cluster) and the SQLite file; all state (sessions, login throttle,
// data) lives in the database, so any worker may answer any request.
import { Buffer } from "node:buffer";
import { setTimeout } from "node:timers";
import cluster from "node:cluster";
import http from "node:http";
import os from "node:os";
import path from "node:path";

const PEER_ADDRESS_HEADER = "x-mailadmin-peer-address";
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";

if (cluster.isPrimary) await runPrimary();
else await runWorker();

function workerCount() {
  const setting = process.env.WORKERS;
  if (setting === undefined || setting === "") return os.availableParallelism();
  const n = Number(setting);
  if (!Number.isInteger(n) || n < 1) throw new Error(`WORKERS must be a positive integer, got "${setting}"`);
  return n;
}

async function runPrimary() {
  const count = workerCount();
  // Migrate once here, before any worker opens the file: workers migrating a fresh file at the same time would race.
  await migrateDatabase();
  let stopping = false;
  let listening = 0;
  const started = new Set();
  cluster.on("listening", (worker) => {
    started.add(worker.id);
    if (++listening === count) console.log(`mail-admin listening on http://${hostname}:${port} (${count} workers)`);
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    // One that never came up (port taken, bad build) would fail again: give up rather than fork in a loop.
    if (!started.has(worker.id)) {
      console.error(`worker ${worker.process.pid} exited (${signal ?? code}) before listening; stopping`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      process.exitCode = 1;
      return;
    }
    // A worker that dies is replaced at once; the others go on answering meanwhile.
    console.error(`worker ${worker.process.pid} died (${signal ?? code}); starting another`);
    cluster.fork();
  });
  for (let i = 0; i < count; i++) cluster.fork();
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      // Graceful: each worker stops accepting, finishes the requests it holds, then exits.
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      cluster.on("exit", () => {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      });
    });
  }
}

async function migrateDatabase() {
  // Same file and folder rules as db/client.ts and db/migrate.ts (this file runs without TypeScript).
  const { default: Database } = await import("better-sqlite3");
  const { drizzle } = await import("drizzle-orm/better-sqlite3");
  const { migrate } = await import("drizzle-orm/better-sqlite3/migrator");
  const fs = await import("node:fs");
  const file = path.resolve(process.env.DATABASE_PATH ?? "data/mail.db");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  migrate(drizzle(sqlite), {
    migrationsFolder: process.env.MIGRATIONS_PATH ?? path.join(process.cwd(), "db", "migrations"),
  });
  sqlite.close();
}

async function runWorker() {
  const { default: next } = await import("next");
  const app = next({ dev: false, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();

  // A PUT or DELETE may name up to 1,000 accounts of up to 32 characters in its path (contract §3): ~33 kB of
  // request line, over Node's default 16 kB header limit (which answers 431).
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
    if (req.url) req.url = escapeStrayPercents(req.url);
    // A handler may answer before reading the whole body (over 1 MiB: 500.111, lib/server/http.ts). The rest is
    // never read: once the answer is out, the connection is closed instead of waiting for the body's end.
    res.on("finish", () => {
      if (req.complete) return;
      req.socket.end();
      setTimeout(() => req.socket.destroy(), 5000).unref();
    });
    void handle(req, res);
  });
  server.keepAliveTimeout = 65_000;
  // Node's HTTP parser refuses malformed requests (say, raw UTF-8 in the URL) before Next sees them, with an empty
  // body; answer with the API's JSON error instead (catalog key malformedRequest).
  const MALFORMED = JSON.stringify({
    code: "400.1",
    message: "Nieprawidłowe żądanie HTTP (błędny wiersz żądania lub nagłówek).",
    category: "internal",
  });
  server.on("clientError", (err, socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) return socket.destroy();
    socket.end(
      "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n" +
        `Content-Length: ${Buffer.byteLength(MALFORMED)}\r\n\r\n${MALFORMED}`,
    );
  });
  server.listen(port, hostname);
  // The primary is gone (killed with SIGKILL, say): nothing would replace or stop this worker any more.
  process.on("disconnect", () => process.exit(0));

  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      // Idle keep-alive connections would hold close() open until their timeout.
      server.closeIdleConnections();
      setTimeout(() => process.exit(0), 8000).unref();
    });
  }
}

/** A stray "%" that starts no escape would make Next answer a plain-text 500; escape it so the API sees it literally. */
function escapeStrayPercents(url) {
  try {
    decodeURIComponent(url);
    return url;
  } catch {
    return url.replace(/%(?![0-9A-Fa-f]{2})/g, "%25").replace(/%([89A-Fa-f][0-9A-Fa-f])/g, "%25$1");
  }
}
