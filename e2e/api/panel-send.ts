// Raw requests to the panel's endpoints on the main server, and a panel sign-in, for the panel fuzz test.
import http from "node:http";
import { expect, inject } from "vitest";
import { sha1Hex, type Creds } from "./client";

const origin = () => new URL(inject("mainBase")).origin;

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One raw request: the path as generated (no normalization of `//`, `\` or dot segments), any method, any body.
 * Characters outside printable ASCII are percent-encoded as every HTTP client does (raw ones never reach Next: the
 * custom server's clientError answers them, e2e/api/protocol.test.ts).
 */
export function send(
  method: string,
  rawPath: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Answer> {
  const path = rawPath.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  return new Promise((resolve, reject) => {
    const url = new URL(origin());
    // Node's client sends a DELETE's or OPTIONS's body without Content-Length on a kept-alive connection: the server
    // then reads it as the next request, and answers the client's next request with that one's 400.
    const framed = body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) };
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers: framed }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

export async function signIn(c: Creds): Promise<string> {
  const res = await send(
    "POST",
    "/api/panel/session",
    { "content-type": "application/json", origin: origin() },
    JSON.stringify({ email: c.email, digest: sha1Hex(c.password) }),
  );
  expect(res.status, res.text).toBe(200);
  return /^[^;]+/.exec(String(res.headers["set-cookie"]))![0];
}
