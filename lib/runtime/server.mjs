// `npm start`: one worker process per CPU core (WORKERS overrides it; WORKERS=1 runs a single worker), each serving
// Next's production build behind a tiny http server that tells route handlers the TCP peer address. Route handlers
// cannot see the socket, and Next passes client-sent forwarding headers through; so every incoming value of the
// trusted header is overwritten from the socket here, in every worker, and a client cannot choose it.
// The workers share the primary's listening socket and the SQLite file; all state (sessions, login throttle, data)
// lives in the database, so any worker may answer any request.
import { Buffer } from "node:buffer";
import { setTimeout } from "node:timers";
import cluster from "node:cluster";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { nameApiConnections, serverHost, serverNames, serverPort, workersSetting } from "../config.mjs";
import { apiPathWithoutRedirect } from "./api-paths.mjs";
import { BASELINE_HEADERS, edgeErrorBody, FORWARDED_FOR_HEADER, PEER_ADDRESS_HEADER } from "./edge.mjs";

// Every PostgreSQL connection of this process and its workers carries the API's application_name: `mailserver
// check` then counts its host's running API once, not again among the connections open now.
nameApiConnections();

const port = serverPort();
const hostname = serverHost();

if (cluster.isPrimary) await runPrimary();
else await runWorker();

function workerCount() {
  const setting = workersSetting();
  if (setting === undefined) return os.availableParallelism();
  const n = Number(setting);
  if (!Number.isInteger(n) || n < 1) throw new Error(`WORKERS must be a positive integer, got "${setting}"`);
  return n;
}

async function runPrimary() {
  const count = workerCount();
  // Migrate once here, before any worker opens the file: workers migrating a fresh file at the same time would race.
  const { migrateDatabase } = await import("../../db/migrate.mjs");
  try {
    await migrateDatabase();
  } catch (err) {
    // One line in the journal, with the operator's next step (a refused upgrade names the release to go through).
    console.error(`mail-admin: the database was not migrated: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }

  // The primary accepts every connection and hands it to a ready worker in turn. Not cluster's own round robin:
  // that can hand a connection to a worker that has just died, and the client then waits forever. Here the primary
  // keeps its copy of a socket until the worker says it has it; the sockets a dead worker never took go to another.
  const ready = [];
  const waiting = [];
  const handedTo = new Map(); // worker id -> Map(socket number -> socket) not yet taken
  let turn = 0;
  let counter = 0;
  let stopping = false;
  const drop = (worker) => {
    const i = ready.indexOf(worker);
    if (i >= 0) ready.splice(i, 1);
  };
  const dispatch = (socket) => {
    if (socket.destroyed) return;
    if (ready.length === 0) return void waiting.push(socket);
    const worker = ready[turn++ % ready.length];
    const id = ++counter;
    handedTo.get(worker.id).set(id, socket);
    worker.send({ connection: id }, socket, { keepOpen: true }, () => {});
  };
  const listener = net.createServer({ pauseOnConnect: true }, dispatch);
  listener.on("error", (err) => {
    console.error(`cannot listen on ${hostname}:${port}: ${err.message}`);
    stop(1);
  });

  const everReady = new Set();
  const live = new Set();
  cluster.on("fork", (worker) => {
    live.add(worker.id);
    handedTo.set(worker.id, new Map());
  });
  cluster.on("message", (worker, message) => {
    if (typeof message?.taken === "number") {
      // The worker holds the connection now; the primary's copy of the descriptor goes.
      handedTo.get(worker.id)?.get(message.taken)?.destroy();
      handedTo.get(worker.id)?.delete(message.taken);
      return;
    }
    if (message !== "ready") return;
    ready.push(worker);
    everReady.add(worker.id);
    if (everReady.size === count && !listener.listening) {
      listener.listen(port, hostname, () =>
        console.log(`mail-admin listening on http://${hostname}:${port} (${count} workers)`),
      );
    }
    for (const socket of waiting.splice(0)) dispatch(socket);
  });
  cluster.on("exit", (worker, code, signal) => {
    drop(worker);
    live.delete(worker.id);
    const untaken = [...(handedTo.get(worker.id)?.values() ?? [])];
    handedTo.delete(worker.id);
    for (const socket of untaken) {
      if (stopping) socket.destroy();
      else dispatch(socket);
    }
    if (stopping) {
      if (live.size === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    // One that never came up (bad build, unreadable database) would fail again: give up rather than fork in a loop.
    if (!everReady.has(worker.id)) {
      console.error(`worker ${worker.process.pid} exited (${signal ?? code}) before it was ready; stopping`);
      return stop(1);
    }
    // A worker that dies is replaced at once; the others go on answering meanwhile.
    console.error(`worker ${worker.process.pid} died (${signal ?? code}); starting another`);
    cluster.fork();
  });

  /** Graceful: no new connections; each worker finishes the requests it holds, then exits. */
  function stop(exitCode) {
    if (exitCode) process.exitCode = exitCode;
    if (stopping) return;
    stopping = true;
    listener.close();
    for (const socket of waiting.splice(0)) socket.destroy();
    if (live.size === 0) process.exit(process.exitCode ?? 0);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    setTimeout(() => process.exit(1), 10_000).unref();
  }
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(0));
  for (let i = 0; i < count; i++) cluster.fork();
}

async function runWorker() {
  const { default: next } = await import("next");
  const app = next({ dev: false, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();

  let active = 0;
  let stopping = false;
  const MALFORMED = edgeErrorBody("malformedRequest");
  // A PUT or DELETE may name up to 1,000 accounts of up to 32 characters in its path (contract §3): ~33 kB of
  // request line, over Node's default 16 kB header limit (which answers 431). Node would refuse an HTTP/1.1 request
  // without a Host header itself, with an empty 400; handleRequest answers it with the JSON one.
  const server = http.createServer({ maxHeaderSize: 64 * 1024, requireHostHeader: false }, handleRequest);
  // An expectation other than 100-continue: Node would answer an empty 417 on its own. RFC 9110 10.1.1 lets a server
  // ignore it, so the request is answered as any other (a JSON answer under /api, as contract §4 asks).
  server.on("checkExpectation", handleRequest);

  function handleRequest(req, res) {
    // Decoded before anything looks at the path: the foreign-target rule and the page headers too.
    if (req.url) req.url = decodeUnreserved(req.url);
    if (req.headers.host === undefined && req.httpVersion === "1.1") {
      res.writeHead(400, { "content-type": "application/json; charset=utf-8", connection: "close" });
      return void res.end(MALFORMED);
    }
    // An absolute-form target or another site's Host never reaches Next, which would build a redirect from it.
    if (isForeignTarget(req)) return answerForeignTarget(req, res);
    // What every answer outside /api carries even when no page renders it (static files, Next's own errors);
    // pages overwrite them with their own (proxy.ts: the same, plus the policy with the page's nonce).
    if (!isApiPath(pathOf(req.url)))
      for (const [name, value] of Object.entries(BASELINE_HEADERS)) res.setHeader(name, value);
    req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
    // X-Forwarded-For as it arrived (Next may add the peer to the header itself); trusted only from TRUSTED_PROXIES.
    if (req.headers["x-forwarded-for"] === undefined) delete req.headers[FORWARDED_FOR_HEADER];
    else req.headers[FORWARDED_FOR_HEADER] = String(req.headers["x-forwarded-for"]);
    if (req.url) req.url = apiPathWithoutRedirect(escapeStrayPercents(req.url));
    const api = isApiPath(pathOf(req.url));
    if (!ROUTE_METHODS.has(req.method ?? "") && api) req.method = "PATCH";
    // Outside /api Next knows no method but fetch's and OPTIONS: it answers TRACE, CONNECT or PROPFIND on a page with a
    // plain-text 500 (a stack trace in the log) or an empty 400.
    else if (!ROUTE_METHODS.has(req.method ?? "") && req.method !== "OPTIONS") return answerPageMethod(req, res);
    // Next acts on its client router's request headers before any route runs: `RSC: 1` answered an API path with an
    // empty 307 to `?_rsc`, and `x-middleware-prefetch` (the pages router's, unused here) answered any path with `{}`
    // without running its route. No client router talks to the API: there they are all dropped.
    for (const name of api ? ROUTER_HEADERS : PAGES_ROUTER_HEADERS) delete req.headers[name];
    active++;
    res.on("close", () => {
      if (--active === 0 && stopping) process.exit(0);
    });
    // A handler may answer without reading the body, or stop reading it at 1 MiB (500.111, lib/server/http/http.ts).
    // Once the answer is out, what is left is read and dropped so that the connection can carry the next request;
    // past another 1 MiB the connection is closed instead of reading on.
    res.on("finish", () => {
      if (req.complete) return;
      let dropped = 0;
      req.on("data", (chunk) => {
        dropped += chunk.length;
        if (dropped > 1024 * 1024) req.socket.destroy();
      });
      req.resume();
    });
    void handle(req, res);
  }
  // CONNECT takes the connection over (a proxy's tunnel): Node hands it here instead of to the request handler, and
  // without a listener closes it unanswered. Answered as any request with a method the path does not take; on a
  // connection whose earlier request is still being answered (pipelined) it is closed instead: assignSocket would
  // throw there and end the worker.
  server.on("connect", (req, socket) => {
    if (socket._httpMessage) return void socket.destroy();
    const res = new http.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on("finish", () => socket.destroySoon());
    handleRequest(req, res);
  });
  server.keepAliveTimeout = 65_000;
  // Node's HTTP parser refuses malformed requests (say, raw UTF-8 in the URL) before Next sees them, with an empty
  // body; answer with the API's JSON error instead (catalog key malformedRequest).
  server.on("clientError", (err, socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) return socket.destroy();
    // An answer to HEAD has no body: a client would read one as garbage after the answer.
    const head = Buffer.isBuffer(err.rawPacket) && err.rawPacket.toString("latin1", 0, 5) === "HEAD ";
    socket.end(
      "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n" +
        `Content-Length: ${Buffer.byteLength(MALFORMED)}\r\n\r\n${head ? "" : MALFORMED}`,
    );
  });

  // Connections come from the primary (see runPrimary), already accepted.
  process.on("message", (message, socket) => {
    if (typeof message?.connection !== "number" || !socket) return;
    process.send({ taken: message.connection });
    // http.Server sets TCP_NODELAY only on sockets it accepts itself; without it, Nagle's algorithm and the
    // client's delayed ACK hold every answer ~40 ms.
    socket.setNoDelay(true);
    server.emit("connection", socket);
    socket.resume();
  });
  process.send("ready");
  // The primary is gone (killed with SIGKILL, say): nothing would replace or stop this worker any more.
  process.on("disconnect", () => process.exit(0));

  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      stopping = true;
      // Idle kept-alive connections are closed; the requests under way finish first.
      server.closeIdleConnections();
      if (active === 0) process.exit(0);
      setTimeout(() => process.exit(0), 8000).unref();
    });
  }
}

// Contract §9 "Paths": nothing redirects to where a request says it is going. The server's own names
// are SERVER_NAMES (comma-separated host names, as nginx's server_name; unset: any Host is taken as ours).
const ownNames = serverNames();
const NOT_FOUND = edgeErrorBody("endpointNotFound");

const pathOf = (url) => (url ?? "/").split("?")[0];
const PAGES_ROUTER_HEADERS = ["x-middleware-prefetch", "x-nextjs-data"];
const ROUTER_HEADERS = [
  ...PAGES_ROUTER_HEADERS,
  "rsc",
  "next-action",
  "next-router-state-tree",
  "next-router-prefetch",
  "next-router-segment-prefetch",
  "next-hmr-refresh",
  "next-url",
];
// Contract §4: every answer under /api/v1 is the API's JSON. Next's route handlers know only fetch's methods, and
// answered TRACE with a plain-text 500 (and a stack trace in the log), WebDAV's PROPFIND and the like with an empty
// 400, and OPTIONS with its own empty 204 on any path. Under /api any other method goes on as PATCH, which no API
// route implements: the route's JSON 405.1 (404.4 on an unknown path), through the API's wrapper like any request.
const ROUTE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"]);
const isApiPath = (path) => path === "/api" || path.startsWith("/api/");

function hostName(host) {
  const h = (host ?? "").trim().toLowerCase();
  return h.startsWith("[") ? h.slice(0, h.indexOf("]") + 1) : h.replace(/:\d+$/, "");
}

// Mail clients ask for these on each hosted domain's own names (autoconfig.<domain>, autodiscover.<domain>,
// mta-sts.<domain>, <domain>), not on SERVER_NAMES; their handlers answer only for hosted domains (docs/onboarding.md).
const CLIENT_SETUP_PATHS = new Set([
  "/mail/config-v1.1.xml",
  "/.well-known/autoconfig/mail/config-v1.1.xml",
  "/autodiscover/autodiscover.xml",
  "/Autodiscover/Autodiscover.xml",
  "/.well-known/mta-sts.txt",
]);

function isForeignTarget(req) {
  if (!(req.url ?? "/").startsWith("/")) return true;
  if (CLIENT_SETUP_PATHS.has(pathOf(req.url))) return false;
  return ownNames.length > 0 && !ownNames.includes(hostName(req.headers.host));
}

/** A page path with a method no page takes: 405, plain text. */
function answerPageMethod(req, res) {
  const body = "Method Not Allowed\n";
  res.writeHead(405, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    allow: "GET, HEAD, POST",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
  req.resume();
}

/**
 * A path's escapes of unreserved characters (letters, digits, "-", ".", "_", "~") decoded: RFC 3986 6.2.2.2 makes
 * them the same characters, so "/%61pi/v1/..." is /api/v1/... and gets the API's answers, not Next's HTML pages.
 */
function decodeUnreserved(url) {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (!path.includes("%")) return url;
  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(c) ? c : escape;
  });
  return q === -1 ? decoded : decoded + url.slice(q);
}

/** /api paths: the JSON 404.4 of an unknown path; anything else: 400. Never a redirect. */
function answerForeignTarget(req, res) {
  let path = "/";
  try {
    path = new URL(req.url ?? "/", "http://placeholder.invalid").pathname;
  } catch {
    // "*" or garbage: not an API path
  }
  const api = isApiPath(path.replace(/\/\/+/g, "/"));
  const body =
    req.method === "HEAD" ? "" : api ? NOT_FOUND : "Bad Request: this server answers only its own host names.\n";
  res.writeHead(api ? 404 : 400, {
    ...BASELINE_HEADERS,
    "content-type": api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "cache-control": "no-store",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
  req.resume();
}

/**
 * A stray "%" that starts no escape, or an escape of a byte that is no UTF-8 character, would make Next answer a
 * plain-text 500; each is escaped so the API sees it literally. Escapes that decode stay as they are, so a stray "%"
 * elsewhere in the URL leaves "ksi%C4%99g" meaning "księg".
 */
function escapeStrayPercents(url) {
  try {
    decodeURIComponent(url);
    return url;
  } catch {
    return url.replace(/%(?![0-9A-Fa-f]{2})/g, "%25").replace(/(?:%[0-9A-Fa-f]{2})+/g, escapeUndecodable);
  }
}

/** A run of escapes with every escape that begins no decodable UTF-8 sequence (1 to 4 bytes) escaped itself. */
function escapeUndecodable(run) {
  const bytes = run.match(/%[0-9A-Fa-f]{2}/g);
  let out = "";
  for (let i = 0; i < bytes.length;) {
    let n = Math.min(4, bytes.length - i);
    for (; n > 0; n--) {
      try {
        decodeURIComponent(bytes.slice(i, i + n).join(""));
        break;
      } catch {
        // not a whole character: try a shorter sequence
      }
    }
    out += n === 0 ? `%25${bytes[i].slice(1)}` : bytes.slice(i, i + n).join("");
    i += Math.max(n, 1);
  }
  return out;
}
