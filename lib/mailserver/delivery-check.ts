import "server-only";
// `mailserver check`'s lines for delivery: Dovecot's quota-status policy service, the mail event service, the
// DKIM key files Rspamd signs with, and the submission port the mail programs' settings name (its login, and its
// refusal of a sender the login does not own).
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { mailService } from "@/lib/server/resources/dns-records";
import { askPolicyService, hostPort as parseHostPort } from "./antispam-check";
import { runTool } from "./run-tool";

type Result = { ok: boolean; detail: string };

/**
 * Logs in on the submission port as a mail program does: implicit TLS on 465, STARTTLS (required) on any other
 * port, then AUTH with the account's password, so a closed port, a missing TLS certificate or a broken SASL link
 * to Dovecot fails here rather than in the first customer's mail program. The certificate is not verified: the
 * check connects by address, not by the name clients use.
 */
export function submissionLogin(hostPort: string, account: string, password: string): () => Promise<Result> {
  return () =>
    submissionSession(hostPort, account, password, (_connection, done) => done(true, `logged in as ${account}`));
}

/**
 * Signed in on the submission port, a MAIL FROM the account does not own is refused at RCPT (553, "not owned by
 * user"): the snippet leaves smtpd_sender_restrictions empty on the MX, and only a submission service given
 * `-o smtpd_sender_restrictions=$mua_sender_restrictions` in master.cf (docs/deploy.md, step 5) refuses it. When the
 * sender is accepted, the check's short message goes to the account itself.
 */
export function submissionRefusesSender(hostPort: string, account: string, password: string): () => Promise<Result> {
  const sender = `mailserver-check.not-owned@${account.split("@")[1] ?? "invalid"}`;
  return () =>
    submissionSession(hostPort, account, password, (connection, done) =>
      connection.send(
        { from: sender, to: [account] },
        `From: <${account}>\r\nTo: <${account}>\r\nSubject: mailserver check\r\n\r\nThis sender should have been refused.\r\n`,
        (err) => {
          const response = err?.response ?? err?.message ?? "";
          if (/not owned by user/.test(response)) done(true, `MAIL FROM <${sender}> refused: ${response}`);
          else if (err) done(false, `MAIL FROM <${sender}> not refused as not owned: ${response}`);
          else
            done(
              false,
              `MAIL FROM <${sender}> accepted as ${account}: add -o smtpd_sender_restrictions=$mua_sender_restrictions ` +
                "to the submission services in master.cf (docs/deploy.md, step 5)",
            );
        },
      ),
    );
}

/** Connects as a mail program does, logs in as `account`, then hands the connection to `then`. */
function submissionSession(
  hostPort: string,
  account: string,
  password: string,
  then: (connection: SMTPConnection, done: (ok: boolean, detail: string) => void) => void,
): Promise<Result> {
  const { host, port } = parseHostPort(hostPort);
  const tls = mailService(host, port).tls;
  const connection = new SMTPConnection({
    host,
    port,
    secure: tls === "ssl",
    requireTLS: tls === "starttls",
    tls: { rejectUnauthorized: false },
    name: "mailserver-check",
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 5000,
  });
  return new Promise((resolve) => {
    let settled = false;
    const done = (ok: boolean, detail: string) => {
      if (settled) return;
      settled = true;
      connection.close();
      resolve({ ok, detail: `${hostPort} (${tls === "ssl" ? "TLS" : "STARTTLS"}): ${detail}` });
    };
    // A lost link to Dovecot's auth service leaves AUTH unanswered: the timeout is what tells.
    connection.on("error", (err: Error & { code?: string }) =>
      done(false, err.code === "ETIMEDOUT" ? "no answer within 5 s" : err.message),
    );
    // Closed by the server without an error (an smtpd that lost its SASL service ends the session): else this
    // promise would never settle, and the check would exit with Node's 13 instead of naming the failure.
    connection.on("end", () => done(false, "the server closed the connection"));
    connection.connect(() =>
      connection.login({ user: account, pass: password }, (err) =>
        err ? done(false, `login as ${account} refused: ${err.message}`) : then(connection, done),
      ),
    );
  });
}

/** Asks quota-status about the account at RCPT, as Postfix does: DUNNO (room left) or a 552 refusal both prove it runs. */
export function quotaStatusAnswers(hostPort: string, account: string): () => Promise<Result> {
  return () => {
    const { host, port } = parseHostPort(hostPort);
    return askPolicyService(
      host,
      port,
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

/**
 * The selector map names the account's domain, its key file exists, and Rspamd's user (`rspamdUser`) can read both
 * through every folder above them: this command runs as root, and a database folder closed to Rspamd's group left
 * every message unsigned while the files were all there.
 */
export function dkimFiles(dir: string, domain: string, rspamdUser: string): () => Result {
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
    if (!fs.existsSync(key)) return { ok: false, detail: `${key} is missing` };
    const user = userIds(rspamdUser);
    if (!user) return { ok: false, detail: `no user ${rspamdUser} (--rspamd-user: the user Rspamd runs as)` };
    const problems = [map, key].flatMap((file) => unreadable(user, file) ?? []);
    return problems.length
      ? { ok: false, detail: `${rspamdUser} cannot read the DKIM keys: ${[...new Set(problems)].join("; ")}` }
      : { ok: true, detail: `${domain}: selector ${selector}, readable by ${rspamdUser}` };
  };
}

interface UserIds {
  uid: number;
  gids: Set<number>;
}

/** A user's uid and every group it has, primary or supplementary (`id`); undefined when there is no such user. */
export function userIds(user: string): UserIds | undefined {
  try {
    const id = (flag: string) => runTool("id", [flag, user], undefined, 10_000).trim();
    return { uid: Number(id("-u")), gids: new Set(id("-G").split(/\s+/).map(Number)) };
  } catch {
    return undefined;
  }
}

/** Why `user` cannot read `file` (a folder above it it cannot enter, or the file), or undefined when it can. */
function unreadable(user: UserIds, file: string): string | undefined {
  const allows = (st: fs.Stats, bit: number) => {
    if (user.uid === 0) return true;
    const shift = st.uid === user.uid ? 6 : user.gids.has(st.gid) ? 3 : 0;
    return ((st.mode >> shift) & bit) === bit;
  };
  const describe = (p: string, st: fs.Stats) =>
    `${p} (mode ${(st.mode & 0o7777).toString(8).padStart(4, "0")}, uid ${st.uid}, gid ${st.gid})`;
  const parts = path.resolve(file).split(path.sep).filter(Boolean);
  for (let i = 0; i < parts.length - 1; i++) {
    const folder = path.sep + parts.slice(0, i + 1).join(path.sep);
    const st = fs.statSync(folder);
    if (!allows(st, 1)) return `cannot enter ${describe(folder, st)}`;
  }
  const st = fs.statSync(file);
  return allows(st, 4) ? undefined : `cannot read ${describe(file, st)}`;
}

/**
 * Asks a Postfix tcp: table (postsrsd's forward or reverse table) for `key` as Postfix does (tcp_table(5):
 * `get <key>`, one reply line). A `200` (found) or `500` (not found) is an answer; no connection, no line within 5 s
 * or a `400` (its own error) is what makes Postfix refuse the recipient with 451 4.3.0 "Temporary lookup failure".
 */
export function tcpTableAnswers(table: string, key: string): Promise<Result> {
  const { host, port } = parseHostPort(table.replace(/^tcp:/, ""));
  return new Promise((resolve) => {
    let reply = "";
    const done = (r: Result) => {
      socket.destroy();
      resolve(r);
    };
    const socket = net.connect(port, host);
    socket.setTimeout(5000, () => done({ ok: false, detail: `${table}: no answer within 5 s` }));
    socket.once("connect", () =>
      socket.write(`get ${key.replace(/[%\s]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`)}\n`),
    );
    socket.on("data", (chunk: Buffer) => {
      reply += chunk.toString("utf8");
      const line = reply.split("\n")[0]!;
      if (!reply.includes("\n")) return;
      if (/^[25]00[ \r]/.test(line)) done({ ok: true, detail: `${table} answers` });
      else done({ ok: false, detail: `${table} answers "${line.trim()}"` });
    });
    socket.once("error", (err: NodeJS.ErrnoException) =>
      done({ ok: false, detail: `${table}: ${err.code ?? err.message}` }),
    );
    socket.once("end", () => done({ ok: false, detail: `${table}: closed without an answer` }));
  });
}
