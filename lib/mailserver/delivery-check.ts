import "server-only";
// `mailserver check`'s lines for delivery: Dovecot's quota-status policy service, the mail event service, and the
// DKIM key files Rspamd signs with.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

type Result = { ok: boolean; detail: string };

/** Asks quota-status about the account at RCPT, as Postfix does: DUNNO (room left) or a 552 refusal both prove it runs. */
export function quotaStatusAnswers(hostPort: string, account: string): () => Promise<Result> {
  return () => {
    const i = hostPort.lastIndexOf(":");
    const host = hostPort.slice(0, i);
    const port = Number(hostPort.slice(i + 1));
    return new Promise((resolve) => {
      const socket = net.connect(port, host);
      let reply = "";
      const done = (r: Result) => {
        socket.destroy();
        resolve(r);
      };
      socket.setTimeout(5000, () => done({ ok: false, detail: `${hostPort}: no answer within 5 s` }));
      socket.once("error", (err: NodeJS.ErrnoException) =>
        done({ ok: false, detail: `${hostPort}: ${err.code ?? err.message} (Dovecot's quota-status service)` }),
      );
      socket.once("connect", () =>
        socket.write(`request=smtpd_access_policy\nprotocol_state=RCPT\nrecipient=${account}\nsize=0\n\n`),
      );
      socket.on("data", (c: Buffer) => {
        reply += c.toString("utf8");
        if (reply.includes("\n\n")) {
          const action = /^action=(.*)$/m.exec(reply)?.[1];
          done(
            action
              ? { ok: true, detail: `${hostPort}: ${account} -> ${action}` }
              : { ok: false, detail: `unexpected answer: ${reply.trim()}` },
          );
        }
      });
    });
  };
}

/** The auth policy endpoint answers as Dovecot expects ({"status":0}). */
export function eventsAnswer(url: string): () => Promise<Result> {
  return async () => {
    try {
      const res = await fetch(`${url}/auth-policy?command=allow`, {
        method: "POST",
        body: "{}",
        signal: AbortSignal.timeout(5000),
      });
      const text = await res.text();
      return /"status":0/.test(text)
        ? { ok: true, detail: `${url} answers` }
        : { ok: false, detail: `${url}: ${res.status} ${text.slice(0, 100)}` };
    } catch (err) {
      return { ok: false, detail: `${url}: ${(err as Error).message} (is \`mailserver events\` running?)` };
    }
  };
}

/** The selector map names the account's domain and its key file exists. */
export function dkimFiles(dir: string, domain: string): () => Result {
  return () => {
    const map = path.join(dir, "selectors.map");
    if (!fs.existsSync(map))
      return { ok: false, detail: `${map} is missing (is \`mailserver events --dkim-dir ${dir}\` running?)` };
    const selector = fs
      .readFileSync(map, "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${domain} `))
      ?.split(" ")[1];
    if (!selector) return { ok: false, detail: `${map} has no selector for ${domain}` };
    const key = path.join(dir, "keys", `${domain}.${selector}.key`);
    return fs.existsSync(key)
      ? { ok: true, detail: `${domain}: selector ${selector}` }
      : { ok: false, detail: `${key} is missing` };
  };
}
