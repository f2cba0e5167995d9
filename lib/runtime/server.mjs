// `npm start`: Next's production server behind a tiny http server that tells route handlers the TCP peer address.
// Route handlers cannot see the socket, and Next passes client-sent forwarding headers through; so every incoming
// value of the trusted header is overwritten from the socket here, and a client cannot choose it.
import { Buffer } from "node:buffer";
import http from "node:http";
import next from "next";
import { apiPathWithoutRedirect } from "./api-paths.mjs";
import { CoalescingResponse } from "./coalescing-response.mjs";

const PEER_ADDRESS_HEADER = "x-mailadmin-peer-address";
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";

const app = next({ dev: false, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();

/** A stray "%" that starts no escape would make Next answer a plain-text 500; escape it so the API sees it literally. */
function escapeStrayPercents(url) {
  try {
    decodeURIComponent(url);
    return url;
  } catch {
    return url.replace(/%(?![0-9A-Fa-f]{2})/g, "%25").replace(/%([89A-Fa-f][0-9A-Fa-f])/g, "%25$1");
  }
}

// A PUT or DELETE may name up to 1,000 accounts of up to 32 characters in its path (contract §3): ~33 kB of
// request line, over Node's default 16 kB header limit (which answers 431).
// CoalescingResponse: the headers leave with the first body write, one system call per API response instead of two.
const server = http.createServer({ maxHeaderSize: 64 * 1024, ServerResponse: CoalescingResponse }, (req, res) => {
  req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
  if (req.url) req.url = apiPathWithoutRedirect(escapeStrayPercents(req.url));
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
server.listen(port, hostname, () => {
  console.log(`mail-admin listening on http://${hostname}:${port}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
