/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
// A raw HTTP request to the main server, for tests of paths that fetch would rewrite.
import http from "node:http";
import { inject } from "vitest";

const origin = () => new URL(inject("mainBase")).origin;

/** One raw HTTP request: the path exactly as given (fetch would normalize backslashes and dot segments). */
export function raw(method: string, rawPath: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; json: any }>(
    (resolve, reject) => {
      const url = new URL(origin());
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path: rawPath,
          headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => {
            let json: unknown;
            if ((res.headers["content-type"] ?? "").startsWith("application/json")) json = JSON.parse(text);
            resolve({ status: res.statusCode!, headers: res.headers, text, json });
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    },
  );
}
