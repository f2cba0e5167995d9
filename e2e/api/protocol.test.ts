// Requests that are not valid HTTP never reach Next: the custom server answers them with the catalog's JSON error.
import http from "node:http";
import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import {
  api,
  basic,
  createAccount,
  expectErrorBody,
  expectStatus,
  postmaster,
  rawRequest as exactRequest,
} from "./client";

function rawRequest(base: string, requestBytes: Buffer): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(requestBytes));
    let data = "";
    socket.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
    socket.on("end", () => resolve(data));
    socket.on("error", reject);
  });
}

describe("malformed HTTP", () => {
  it("raw non-ASCII bytes in the URL get the JSON 400.1 of the catalog, not an empty answer", async () => {
    const base = inject("mainBase");
    const answer = await rawRequest(
      base,
      Buffer.from(`GET /api/v1/emails/x.pl?search=KSIĘG HTTP/1.1\r\nHost: x\r\n\r\n`),
    );
    const [head, body] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400/);
    expect(head).toMatch(/content-type: application\/json/i);
    expectErrorBody(JSON.parse(body!), "malformedRequest");
  });
});

describe("requests Node or Next would answer on their own", () => {
  const target = "/api/v1/domains/proto.example.com";
  const origin = () => new URL(inject("mainBase")).origin;

  it("an HTTP/1.1 request without Host gets the JSON 400.1, not Node's empty 400", async () => {
    const answer = await rawRequest(
      inject("mainBase"),
      Buffer.from(`GET ${target} HTTP/1.1\r\nConnection: close\r\n\r\n`),
    );
    const [head, body] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400/);
    expect(head).toMatch(/content-type: application\/json/i);
    // Chunked: the JSON is the second line of the body.
    expectErrorBody(JSON.parse(body!.split("\r\n")[1]!), "malformedRequest");
  });

  it("an expectation other than 100-continue is ignored, not answered with Node's empty 417", async () => {
    const auth = basic(postmaster("proto.example.com"));
    const res = await exactRequest({ origin: origin(), target, headers: { authorization: auth, expect: "foo" } });
    expect(res.status).toBe(200);
    expect((res.json as { name?: string }).name).toBe("proto.example.com");
  });

  // Next's client router headers: `RSC: 1` made Next answer an empty 307 to `?_rsc`, and `x-middleware-prefetch` an
  // empty `{}` without running the route (so a PUT changed nothing, yet answered 200).
  it.each(["rsc", "x-middleware-prefetch", "next-router-prefetch", "next-action"])(
    "the %s header changes nothing under /api: the route answers, a PUT writes",
    async (header) => {
      const anonymous = await exactRequest({ origin: origin(), target, headers: { [header]: "1" } });
      expect(anonymous.status).toBe(401);
      const auth = postmaster("proto.example.com");
      const description = `via ${header}`;
      const name = header.replace(/[^a-z]/g, "");
      await createAccount("proto.example.com", name);
      const put = await api("PUT", `emails/proto.example.com/${name}`, {
        auth,
        body: { description },
        headers: { [header]: "1" },
      });
      expectStatus(put, 200);
      expect((put.json as { description?: string }).description).toBe(description);
    },
  );

  it("a body that is not UTF-8 is refused (400.1), not stored with U+FFFD in place of its letters", async () => {
    const auth = postmaster("proto.example.com");
    await createAccount("proto.example.com", "faktury", { description: "przed" });
    // "Faktury przychodzące" in ISO-8859-2: ą is the byte 0xB1.
    const latin2 = Buffer.concat([
      Buffer.from('{"description":"Faktury przychodz'),
      Buffer.from([0xb1]),
      Buffer.from('ce"}'),
    ]);
    const res = await fetch(`${inject("mainBase")}/emails/proto.example.com/faktury`, {
      method: "PUT",
      headers: { authorization: basic(auth), "content-type": "application/json; charset=iso-8859-2" },
      body: latin2,
    });
    expect(res.status).toBe(400);
    expectErrorBody(await res.json(), "invalidJson");
    const after = await api("GET", "emails/proto.example.com/faktury", { auth });
    expect((after.json as { description?: string }).description).toBe("przed");
  });
});

describe("methods fetch does not know", () => {
  // Next answered TRACE with a plain-text 500 (logging a stack trace), WebDAV's methods with an empty 400 and OPTIONS
  // with an empty 204 on any path; contract §4 wants the API's JSON for every answer under /api/v1.
  const call = (method: string, path: string) =>
    new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = http.request(new URL(path, inject("mainBase")), { method }, (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }));
      });
      req.on("error", reject).end();
    });
  it.each(["TRACE", "PROPFIND", "MKCOL", "LOCK", "SEARCH", "OPTIONS"])(
    "%s: 405.1 on a known path, 404.4 on an unknown one, as JSON",
    async (method) => {
      const known = await call(method, "/api/v1/domains/example.com");
      expect([known.status, known.type]).toEqual([405, "application/json; charset=utf-8"]);
      expectErrorBody(JSON.parse(known.body), "methodNotAllowed");
      const unknown = await call(method, "/api/v1/no/such/path");
      expect(unknown.status).toBe(404);
      expectErrorBody(JSON.parse(unknown.body), "endpointNotFound");
    },
  );
});

describe("methods and paths Next would have answered itself", () => {
  const status = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  const bodyOf = (answer: string) => {
    const [head = "", ...rest] = answer.split("\r\n\r\n");
    const body = rest.join("\r\n\r\n");
    if (!/\r\ntransfer-encoding: chunked/i.test(head)) return body;
    let out = "";
    for (let at = 0, size = 1; size > 0;) {
      const end = body.indexOf("\r\n", at);
      size = parseInt(body.slice(at, end), 16);
      out += body.slice(end + 2, end + 2 + size);
      at = end + 2 + size + 2;
    }
    return out;
  };
  it("CONNECT on an API path: the JSON 405.1 (it took the connection over and closed it unanswered)", async () => {
    const answer = await rawRequest(
      inject("mainBase"),
      Buffer.from("CONNECT /api/v1/domains/example.com HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    );
    expect(status(answer)).toBe(405);
    expect(answer).toMatch(/\r\nallow: GET, HEAD, PUT\r\n/i);
    expectErrorBody(JSON.parse(bodyOf(answer)), "methodNotAllowed");
  });
  it.each(["TRACE", "PROPFIND", "CONNECT"])(
    "%s on a page: 405 (Next answered a plain-text 500 or an empty 400)",
    async (m) => {
      const answer = await rawRequest(
        inject("mainBase"),
        Buffer.from(`${m} /login HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
      );
      expect(status(answer)).toBe(405);
      expect(bodyOf(answer)).toBe("Method Not Allowed\n");
    },
  );
  it("an API path with escaped letters (/%61pi/v1/...) is the API path: JSON, not the panel's HTML 404", async () => {
    const res = await exactRequest({
      origin: new URL(inject("mainBase")).origin,
      target: "/%61pi/v1/domains/ex%61mple.com",
    });
    expect(res.status).toBe(401);
    expectErrorBody(res.json, "missingCredentials");
    const trace = await exactRequest({
      origin: new URL(inject("mainBase")).origin,
      method: "TRACE",
      target: "/%61pi/v1/domains/example.com",
    });
    expect(trace.status).toBe(405);
    expectErrorBody(trace.json, "methodNotAllowed");
  });
});

describe("405 names what a path takes (RFC 9110 15.5.6)", () => {
  const call = (method: string, path: string) =>
    exactRequest({ origin: new URL(inject("mainBase")).origin, method, target: `/api/v1/${path}` });
  const PATHS: [string, string[]][] = [
    ["domains/x.example", ["GET", "PUT"]],
    ["emails/x.example", ["GET"]],
    ["emails/x.example/jan", ["GET", "POST", "PUT", "DELETE"]],
    ["emails/x.example/jan/lists", ["GET"]],
    ["aliases/x.example", ["GET"]],
    ["aliases/x.example/info", ["GET", "POST", "PUT", "DELETE"]],
    ["mailinglists/x.example", ["GET"]],
    ["mailinglists/x.example/news", ["GET", "POST", "PUT", "DELETE"]],
    ["mailinglists/x.example/news/moderation", ["GET", "POST"]],
    ["openapi.json", ["GET"]],
  ];
  it.each(PATHS)("%s: Allow %j (GET with HEAD) on every 405, and no 405 for those", async (path, methods) => {
    const allow = methods.flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])).join(", ");
    for (const method of ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const res = await call(method, path);
      if (allow.split(", ").includes(method)) {
        expect(res.status, `${method} ${path}`).not.toBe(405);
      } else {
        expect([res.status, res.headers.allow], `${method} ${path}`).toEqual([405, allow]);
        expectErrorBody(res.json, "methodNotAllowed");
      }
    }
  });
});

describe("kept-alive connections", () => {
  // The workers get their connections from the primary, so http.Server does not set TCP_NODELAY on them itself;
  // without it Nagle's algorithm and the client's delayed ACK hold every answer about 40 ms.
  it("answer one request after another without the ~40 ms Nagle delay", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL("/api/health", inject("mainBase"));
    const times: number[] = [];
    try {
      for (let i = 0; i < 21; i++) {
        const started = performance.now();
        await new Promise<void>((resolve, reject) => {
          http.get(url, { agent }, (res) => res.resume().on("end", resolve)).on("error", reject);
        });
        times.push(performance.now() - started);
      }
    } finally {
      agent.destroy();
    }
    times.sort((a, b) => a - b);
    expect(times[10]).toBeLessThan(30);
  });
});
