// Test stand-ins for what lies outside the mail server, speaking the real protocols: the other providers' SMTP
// servers (one catcher for every outside domain: Postfix relays there), an SMS company's HTTP gateway, and
// postsrsd (Debian's package, started as a private instance on free ports).
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";

export interface CaughtMail {
  from: string;
  to: string[];
  raw: string;
}

/** An SMTP server on a free loopback port that keeps every message it is given. */
export async function startOutsideSmtp(): Promise<{ port: number; mails: CaughtMail[]; close(): Promise<void> }> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

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

/** Debian's postsrsd as a private daemon for `domain` on the given loopback ports. */
export function startPostsrsd(dir: string, domain: string, forward: number, reverse: number): { stop(): void } {
  fs.mkdirSync(dir, { recursive: true });
  const secret = path.join(dir, "postsrsd.secret");
  fs.writeFileSync(secret, crypto.randomBytes(24).toString("base64") + "\n", { mode: 0o600 });
  const pidfile = path.join(dir, "postsrsd.pid");
  execFileSync("postsrsd", [`-s${secret}`, `-d${domain}`, `-f${forward}`, `-r${reverse}`, "-l127.0.0.1", "-4", "-D", `-p${pidfile}`], {
    stdio: "ignore",
    timeout: 10_000,
  });
  return {
    stop() {
      try {
        process.kill(Number(fs.readFileSync(pidfile, "utf8").trim()), "SIGTERM");
      } catch {
        // not running
      }
    },
  };
}
