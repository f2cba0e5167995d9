// Test stand-in for an SMS company's HTTP gateway (a third-party service), speaking HTTP: the sandbox's events
// component is pointed at it through SMS_CONFIG. Mail for other providers needs no stand-in: it lands in the
// sandbox's outbound Maildir.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface GatewayRequest {
  method: string;
  url: string;
  fields: Record<string, string>;
}

/** An SMS company's HTTP gateway: records each request; `failNext` makes the next N answer 503. */
export async function startSmsGateway() {
  const requests: GatewayRequest[] = [];
  const state = { failNext: 0, failures: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (state.failNext > 0) {
        state.failNext--;
        state.failures++;
        res.writeHead(503).end("busy");
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      const fields = Object.fromEntries(new URLSearchParams(body));
      requests.push({ method: req.method ?? "", url: req.url ?? "", fields });
      res.writeHead(200, { "content-type": "text/plain" }).end("OK: queued");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, requests, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
