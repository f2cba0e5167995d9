import "server-only";
// `mailserver check`'s lines for delivery: Dovecot's quota-status policy service, the mail event service, and the
// DKIM key files Rspamd signs with.
import fs from "node:fs";
import path from "node:path";
import { askPolicyService } from "./antispam-check";

type Result = { ok: boolean; detail: string };

/** Asks quota-status about the account at RCPT, as Postfix does: DUNNO (room left) or a 552 refusal both prove it runs. */
export function quotaStatusAnswers(hostPort: string, account: string): () => Promise<Result> {
  return () => {
    const i = hostPort.lastIndexOf(":");
    return askPolicyService(
      hostPort.slice(0, i),
      Number(hostPort.slice(i + 1)),
      `protocol_state=RCPT\nrecipient=${account}\nsize=0\n`,
      "Dovecot's quota-status service",
      (action) => `${hostPort}: ${account} -> ${action}`,
    );
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
