// Postfix's policy delegation protocol (SMTPD_POLICY_README): one request is lines of name=value ending with an
// empty line; the answer is "action=<access(5) action>" and an empty line. Connections are kept open by Postfix
// and carry many requests.
import net from "node:net";
import { normalizeIp } from "@/lib/server/http/ip-address";
import { END_OF_DATA_REQUEST } from "../antispam-config";
import type { PolicyAnswer, PolicyRequest } from "./spam-policy";

/**
 * A connection sending more than this without an end is dropped. Postfix's requests are well under 2 kB; Rspamd's at
 * the end of DATA names every recipient (at most smtpd_recipient_limit, 1,000, each of at most MAX_ADDRESS_BYTES, 254,
 * as ./spam-policy.ts refuses longer ones at RCPT) beside a few header fields it cuts short
 * (lib/mailserver/antispam-config.ts).
 */
export const MAX_POLICY_REQUEST = 320 * 1024;

/**
 * A connection with nothing read or written for this long is closed. Postfix's policy client closes its own after
 * smtpd_policy_service_max_idle (300 s) without a request, or after max_ttl (1000 s), so a connection idle past this is
 * one Postfix has lost (a killed smtpd, a dropped network path that left no FIN) or not Postfix at all; before, each
 * such connection held a socket and its buffer for the life of the service. Postfix reconnects when it needs to.
 */
export const POLICY_IDLE_MS = 330_000;

export interface PolicyServer {
  port: number;
  close(): Promise<void>;
}

export async function startPolicyServer(
  decide: (req: PolicyRequest) => Promise<PolicyAnswer>,
  listen: { host: string; port: number },
  log?: (line: string) => void,
  idleMs = POLICY_IDLE_MS,
): Promise<PolicyServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    // Node's socket timeout counts from the last byte read or written.
    socket.setTimeout(idleMs, () => socket.destroy());
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let buffer = "";
    // Where the search for the blank line resumes: each byte is looked at once, not again with every chunk.
    let scanned = 0;
    let chain = Promise.resolve();
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      for (let end = buffer.indexOf("\n\n", Math.max(0, scanned - 1)); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = Buffer.from(buffer.slice(0, end), "latin1").toString("utf8");
        buffer = buffer.slice(end + 2);
        scanned = 0;
        const req: Record<string, string> = {};
        for (const line of block.split("\n")) {
          const eq = line.indexOf("=");
          if (eq > 0) req[line.slice(0, eq)] = line.slice(eq + 1);
        }
        // Postfix writes an IPv4 client as IPv4 already; a mapped one (::ffff:1.2.3.4) would escape the per-address
        // rules (SPF, greylisting, sessions) written or recorded in IPv4.
        if (req.client_address) req.client_address = normalizeIp(req.client_address);
        // Answers go back in request order.
        chain = chain.then(async () => {
          let answer: PolicyAnswer;
          try {
            answer = await decide(req);
          } catch (err) {
            // Fail open, like default_action=DUNNO when the service is unreachable; but a signed-in sender's mail
            // waits at the end of DATA (Rspamd's soft reject), where its From is checked before it is signed.
            log?.(`policy error: ${(err as Error).message}`);
            answer =
              req.request === END_OF_DATA_REQUEST && req.user
                ? { action: "DEFER_IF_PERMIT 4.7.1 The From check failed; try again later", rule: "none" }
                : { action: "DUNNO", rule: "none" };
          }
          log?.(
            `${req.client_address ?? "-"} <${req.sender ?? ""}> -> <${req.recipient ?? req.recipients ?? ""}>: ${answer.rule} ${answer.action}`,
          );
          if (!socket.destroyed) socket.write(`action=${answer.action}\n\n`);
        });
      }
      scanned = buffer.length;
      if (buffer.length > MAX_POLICY_REQUEST) {
        log?.(`policy: request from ${socket.remoteAddress} over ${MAX_POLICY_REQUEST} bytes, connection dropped`);
        buffer = "";
        socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) =>
    server.once("error", reject).listen(listen.port, listen.host, () => resolve()),
  );
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
