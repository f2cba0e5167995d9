// CoalescingResponse on a real node:http server: Next's order (flushHeaders, write, end in one tick) costs one socket
// write, and a flush followed by a wait still sends the headers at once.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { CoalescingResponse } from "./coalescing-response.mjs";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const servers: http.Server[] = [];

async function serve(options: http.ServerOptions, handler: Handler): Promise<number> {
  const server = http.createServer(options, handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

afterEach(async () => {
  // Idle keep-alive connections would hold close() for the agents' 4-5 s.
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The socket writes (calls of the stream's _write and _writev) one response took, in Next's order of calls. */
async function socketWritesOfResponse(options: http.ServerOptions): Promise<{ writes: number; body: string }> {
  let writes = 0;
  const port = await serve(options, (req, res) => {
    const socket = req.socket as unknown as Record<"_write" | "_writev", (...args: unknown[]) => unknown>;
    for (const method of ["_write", "_writev"] as const) {
      const original = socket[method].bind(socket);
      socket[method] = (...args: unknown[]) => {
        writes += 1;
        return original(...args);
      };
    }
    res.setHeader("content-type", "application/json");
    res.flushHeaders();
    res.write('{"status":');
    res.end('"ok"}');
  });
  const res = await fetch(`http://127.0.0.1:${port}/`);
  return { writes, body: await res.text() };
}

describe("CoalescingResponse", () => {
  it("sends flushHeaders, write and end of one tick in a single socket write", async () => {
    // Node's own class, as a check that the count sees the difference: the flush is a write of its own.
    expect(await socketWritesOfResponse({})).toEqual({ writes: 2, body: '{"status":"ok"}' });
    expect(await socketWritesOfResponse({ ServerResponse: CoalescingResponse })).toEqual({ writes: 1, body: '{"status":"ok"}' });
  });

  it("still sends the headers at once when the body comes later, with or without writeHead", async () => {
    const port = await serve({ ServerResponse: CoalescingResponse }, (req, res) => {
      if (req.url === "/composed") res.writeHead(200, { "content-type": "text/plain" });
      res.flushHeaders();
      setTimeout(() => res.end("late"), 500);
    });
    for (const path of ["/composed", "/implicit"]) {
      const started = performance.now();
      const headersAfter = await new Promise<number>((resolve, reject) => {
        http
          .get(`http://127.0.0.1:${port}${path}`, (res) => {
            resolve(performance.now() - started);
            res.resume();
          })
          .on("error", reject);
      });
      expect(headersAfter).toBeLessThan(400);
    }
  });
});
