// The anti-spam checks of `mailserver check`: Rspamd's controller answers /ping, and the policy service answers a
// policy request (one that changes nothing: a request outside RCPT is always DUNNO).
import http from "node:http";
import net from "node:net";

type Result = { ok: boolean; detail: string };

/** "host:port" (or Postfix's "inet:host:port") of a service the checks connect to. */
export const hostPort = (value: string) => {
  const m = /^(?:inet:)?([^:]+):(\d+)$/.exec(value);
  if (!m) throw new Error(`expected host:port, got '${value}'`);
  return { host: m[1]!, port: Number(m[2]) };
};

export function rspamdAnswers(controller: string): () => Promise<Result> {
  return () => {
    const { host, port } = hostPort(controller);
    return new Promise((resolve) => {
      const req = http.get({ host, port, path: "/ping", timeout: 5000 }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString("utf8")));
        res.on("end", () =>
          resolve(
            res.statusCode === 200 && /pong/.test(body)
              ? { ok: true, detail: `${host}:${port}/ping answers pong` }
              : { ok: false, detail: `${host}:${port}/ping answered ${res.statusCode}: ${body.trim().slice(0, 100)}` },
          ),
        );
      });
      req.once("timeout", () => req.destroy(new Error("no answer within 5 s")));
      req.once("error", (err: NodeJS.ErrnoException) =>
        resolve({
          ok: false,
          detail: `${host}:${port}: ${err.code ?? err.message} (is Rspamd running? rspamd/local.d from \`mailserver config\`)`,
        }),
      );
    });
  };
}

/**
 * Sends one Postfix policy request (the attribute lines of `request`) to host:port and reads the answer's action:
 * `answered` words the success, `what` names the service in a connection failure.
 */
export function askPolicyService(
  host: string,
  port: number,
  request: string,
  what: string,
  answered: (action: string) => string,
): Promise<Result> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    let reply = "";
    const done = (r: Result) => {
      socket.destroy();
      resolve(r);
    };
    socket.setTimeout(5000, () => done({ ok: false, detail: `${host}:${port}: no answer within 5 s` }));
    socket.once("error", (err: NodeJS.ErrnoException) =>
      done({ ok: false, detail: `${host}:${port}: ${err.code ?? err.message} (${what})` }),
    );
    socket.once("connect", () => socket.write(`request=smtpd_access_policy\n${request}\n`));
    socket.on("data", (c: Buffer) => {
      reply += c.toString("utf8");
      if (reply.includes("\n\n")) {
        const action = /^action=(.*)$/m.exec(reply)?.[1];
        done(
          action ? { ok: true, detail: answered(action) } : { ok: false, detail: `unexpected answer: ${reply.trim()}` },
        );
      }
    });
  });
}

export function policyAnswers(service: string): () => Promise<Result> {
  return () => {
    const { host, port } = hostPort(service);
    return askPolicyService(
      host,
      port,
      "protocol_state=END-OF-MESSAGE\n",
      "is `mailserver policy` running?",
      (action) => `${host}:${port} answers action=${action}`,
    );
  };
}
