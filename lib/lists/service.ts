import "server-only";
// The list service (docs/lists.md): Postfix delivers mail for list addresses to its LMTP listener; it decides who
// may post, holds posts for moderation, answers SUBSCRIBE/UNSUBSCRIBE, records bounces, and hands the copies back
// to Postfix. Its small HTTP server serves the confirmation and moderation pages (PUBLIC_URL).
import crypto from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { Db } from "@/db/client";
import type { Headers } from "mailsplit";
import { firstAddress, mailbox, phrase, readHeaders, rewrittenStream } from "./message";
import { bounceAddress, listIdOf, sendComposed, sendmail, type SendmailOptions } from "./sendmail";
import { listStore, sha256, newToken, type ListRow, type ListStore, type RequestRefusal } from "./store";
import { render, templateOf, type TemplateName } from "./templates";
import { startListPages } from "./pages";
import { eachLimited, personalCopy, smtpCopySender, writeCopyBase, type SmtpTarget } from "./copies";
import { readUnsubscribeToken, unsubscribeToken } from "./unsubscribe";
import { POSTER_HEADER } from "@/lib/mailserver/antispam-config";
import { admit } from "./admission";

export interface ListServiceOptions extends SendmailOptions {
  db: Db;
  /** LMTP listener (Postfix's transport for list addresses); port 0 picks a free one. */
  lmtp: { host: string; port: number };
  /** Confirmation and moderation pages; PUBLIC_URL is how the outside reaches them. */
  http: { host: string; port: number };
  publicUrl: string;
  spoolDir: string;
  /** Postfix's SMTP listener for the copies (one message per subscriber, docs/lists.md). */
  smtp: SmtpTarget;
  /** Copies handed over at once (pooled SMTP connections). */
  smtpConnections: number;
  /** Subscribers read from the database at a time. */
  batchSize: number;
  /** Held posts not approved within this many days are deleted. */
  heldDays: number;
  /** Confirmation links expire after this many hours. */
  tokenHours: number;
  /** Confirmation requests the pages send per client address within an hour. */
  requestsPerHour: number;
  /** How often approved posts are looked for (the panel approves through the database). */
  pollMs: number;
  log: (line: string) => void;
}

export const LIST_SERVICE_DEFAULTS = {
  lmtp: { host: "127.0.0.1", port: 10024 },
  http: { host: "127.0.0.1", port: 10025 },
  sendmail: "/usr/sbin/sendmail",
  smtp: { host: "127.0.0.1", port: 25 },
  smtpConnections: 4,
  batchSize: 500,
  heldDays: 14,
  tokenHours: 48,
  requestsPerHour: 5,
  pollMs: 2000,
} as const;

/** An LMTP answer for one recipient. */
class Reply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

type Target = { kind: "post"; list: ListRow } | { kind: "bounce"; list: ListRow; address: string };

const BOUNCE_MARK = "-bounces+";

/** A VERP bounce address names the subscriber: <list>-bounces+<user>=<host>@<domain>. */
export async function parseTarget(store: ListStore, address: string): Promise<Target | undefined> {
  const email = address.toLowerCase();
  const list = await store.listByEmail(email);
  if (list) return { kind: "post", list };
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  const mark = local.indexOf(BOUNCE_MARK);
  if (at < 0 || mark <= 0) return undefined;
  const bounceList = await store.listByEmail(`${local.slice(0, mark)}${email.slice(at)}`);
  const verp = local.slice(mark + BOUNCE_MARK.length);
  const eq = verp.lastIndexOf("=");
  if (!bounceList || eq <= 0) return undefined;
  return { kind: "bounce", list: bounceList, address: `${verp.slice(0, eq)}@${verp.slice(eq + 1)}` };
}

/**
 * The headers of every copy (RFC 2369, 2919); the poster's own From goes into X-Original-From. List-Unsubscribe
 * here names the list's page; each subscriber's copy gets its own (`personalUnsubscribe`).
 */
export function listHeaders(h: Headers, list: ListRow, publicUrl: string): void {
  const raw = (line: string | undefined) => (line ? line.slice(line.indexOf(":") + 1).trim() : "");
  const originalFrom = raw(h.get("from")[0]);
  for (const key of [
    "from",
    "reply-to",
    "sender",
    "list-id",
    "list-post",
    "list-help",
    "list-unsubscribe",
    "list-unsubscribe-post",
    "list-subscribe",
    "list-owner",
    "list-archive",
    "precedence",
    "x-original-from",
    "dkim-signature",
    POSTER_HEADER.toLowerCase(),
    "return-path",
    "errors-to",
  ]) {
    h.remove(key);
  }
  const name = list.description || list.email;
  const page = `${publicUrl}/lists/${encodeURIComponent(list.email)}`;
  const replyTo =
    list.replytoMode === 1 && originalFrom
      ? originalFrom
      : list.replytoMode === 2
        ? `<${list.replytoEmail}>`
        : `<${list.email}>`;
  const added: [string, string][] = [
    ["From", mailbox(name, list.email)],
    ["Reply-To", replyTo],
    ["X-Original-From", originalFrom || "<>"],
    ["List-Id", list.description ? `${phrase(list.description)} <${listIdOf(list)}>` : `<${listIdOf(list)}>`],
    ["List-Post", `<mailto:${list.email}>`],
    ["List-Help", `<${page}>`],
    ["List-Subscribe", `<mailto:${list.email}?subject=subscribe>`],
    ["List-Unsubscribe", `<mailto:${list.email}?subject=unsubscribe>, <${page}>`],
    ["List-Unsubscribe-Post", "List-Unsubscribe=One-Click"],
    ["Precedence", "list"],
  ];
  // Prepended in reverse so they appear in this order, above the message's own headers.
  for (const [key, value] of added.reverse()) h.add(key, value);
}

/** One subscriber's List-Unsubscribe (RFC 8058): the mailto command and the signed one-click link. */
export const personalUnsubscribe = (list: ListRow, publicUrl: string, token: string) =>
  `<mailto:${list.email}?subject=unsubscribe>, <${publicUrl}/unsubscribe/${token}>`;

/** The VERP bounce address of one subscriber: <list>-bounces+<user>=<host>@<domain> (Postfix's -XV form). */
export function verpAddress(list: { name: string; domain: string }, subscriber: string): string {
  const at = subscriber.lastIndexOf("@");
  return `${list.name}-bounces+${subscriber.slice(0, at)}=${subscriber.slice(at + 1)}@${list.domain}`;
}

export interface ListService {
  lmtpPort: number;
  httpPort: number;
  /** Sends approved posts and expires old ones now (also runs every pollMs). */
  pump(): Promise<void>;
  close(): Promise<void>;
}

export async function startListService(o: ListServiceOptions): Promise<ListService> {
  const store = listStore(o.db);
  fs.mkdirSync(o.spoolDir, { recursive: true, mode: 0o700 });

  const copies = smtpCopySender(o.smtp, o.smtpConnections);

  /**
   * A copy to every subscriber, each with its own List-Unsubscribe link and VERP sender: the headers are rewritten
   * once into a spool file, and each copy streams from it (lib/lists/copies.ts); subscribers are read in pages.
   */
  async function distribute(list: ListRow, source: string | Buffer): Promise<number> {
    const file = path.join(o.spoolDir, `${Date.now()}-${crypto.randomBytes(6).toString("hex")}.copy`);
    const base = await writeCopyBase(
      rewrittenStream(source, (h) => listHeaders(h, list, o.publicUrl)),
      file,
    );
    let after = "";
    let sent = 0;
    try {
      for (;;) {
        const batch = await store.subscribersAfter(list.id, after, o.batchSize);
        if (batch.length === 0) break;
        await eachLimited(batch, o.smtpConnections, async (rcpt) => {
          const refused = await copies.send(
            verpAddress(list, rcpt),
            rcpt,
            personalCopy(base, {
              "List-Unsubscribe": personalUnsubscribe(list, o.publicUrl, await unsubscribeToken(o.db, list.id, rcpt)),
            }),
          );
          // Refused for good at RCPT: the bounce is known now, not from a DSN later.
          if (refused) {
            await store.recordBounce(list.id, rcpt, refused.slice(0, 500));
            o.log(`${list.email}: bounce recorded for ${rcpt} (${refused})`);
          }
        });
        sent += batch.length;
        after = batch[batch.length - 1]!;
      }
    } finally {
      fs.rm(file, { force: true }, () => {});
    }
    o.log(`${list.email}: distributed to ${sent} subscribers`);
    return sent;
  }

  /** A one-click unsubscription (RFC 8058 POST): at once, no confirmation; the goodbye when the address was on. */
  async function oneClick(token: string): Promise<{ list: ListRow; address: string } | undefined> {
    const t = await readUnsubscribeToken(o.db, token);
    const list = t && (await store.listById(t.listId));
    if (!t || !list) return undefined;
    if (await store.unsubscribe(list.id, t.address)) {
      o.log(`${list.email}: ${t.address} unsubscribed (one-click)`);
      await sendTemplate(list, "unsubscribe_mail", t.address);
    }
    return { list, address: t.address };
  }

  const values = (list: ListRow, address: string, link?: string) => ({
    list: list.email,
    description: list.description || list.email,
    address,
    confirm_link: link,
  });

  async function sendTemplate(list: ListRow, name: TemplateName, to: string, link?: string) {
    const t = templateOf(list, name);
    const v = values(list, to, link);
    await sendComposed(o, list, list.description || list.email, to, render(t.subject, v), render(t.body, v));
  }

  function confirmLink(list: ListRow, token: string): string {
    if (!list.confirmUrl) return `${o.publicUrl}/confirm/${token}`;
    return `${list.confirmUrl}${list.confirmUrl.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
  }

  /**
   * SUBSCRIBE/UNSUBSCRIBE (by mail or from the list's page): a confirmation request to the address, at most one
   * pending per list and address, and from the pages at most `requestsPerHour` per client address.
   */
  async function requestConfirmation(
    list: ListRow,
    action: "subscribe" | "unsubscribe",
    address: string,
    client?: string,
  ): Promise<RequestRefusal | undefined> {
    const made = await store.requestToken(
      list.id,
      action,
      address,
      o.tokenHours * 3_600_000,
      client ? { address: client, budget: o.requestsPerHour } : undefined,
    );
    if ("refused" in made) {
      o.log(
        `${list.email}: ${action} request for ${address}${client ? ` from ${client}` : ""} refused (${made.refused})`,
      );
      return made.refused;
    }
    await sendTemplate(
      list,
      action === "subscribe" ? "subscribe_request_mail" : "unsubscribe_request_mail",
      address,
      confirmLink(list, made.token),
    );
    o.log(`${list.email}: ${action} request sent to ${address}`);
    return undefined;
  }

  /** A confirmation link followed (POST): single use; subscribes or unsubscribes, then the welcome or goodbye. */
  async function confirm(token: string): Promise<{ list: ListRow; action: string; address: string } | undefined> {
    const t = await store.takeToken(token);
    const list = t && (await store.listById(t.listId));
    if (!t || !list) return undefined;
    if (t.action === "subscribe") await store.subscribe(list.id, t.address);
    else await store.unsubscribe(list.id, t.address);
    o.log(`${list.email}: ${t.address} ${t.action}d`);
    await sendTemplate(list, t.action === "subscribe" ? "subscribe_mail" : "unsubscribe_mail", t.address);
    return { list, action: t.action, address: t.address };
  }

  async function hold(list: ListRow, file: string, poster: string, subject: string): Promise<void> {
    const token = newToken();
    await store.hold(list.id, poster, subject, fs.readFileSync(file), sha256(token));
    const link = (action: string) => `${o.publicUrl}/moderate/${token}?action=${action}`;
    const text =
      `Wiadomość od ${poster} do listy ${list.email} czeka na decyzję moderatora.\n\n` +
      `Temat: ${subject}\n\nZatwierdź (zostanie rozesłana do subskrybentów):\n${link("approve")}\n\n` +
      `Odrzuć (zostanie usunięta):\n${link("reject")}\n\n` +
      `Bez decyzji wiadomość zostanie usunięta po ${o.heldDays} dniach. Można też zdecydować w panelu, w edytorze listy.`;
    for (const moderator of await store.moderators(list.id)) {
      await sendComposed(
        o,
        list,
        list.description || list.email,
        moderator,
        `Do moderacji: ${subject}`.slice(0, 200),
        text,
      );
    }
    o.log(`${list.email}: post from ${poster} held for moderation`);
  }

  async function handlePost(list: ListRow, file: string, envelopeFrom: string): Promise<string> {
    const h = await readHeaders(file);
    const poster = firstAddress(h.getFirst("from")) || envelopeFrom.toLowerCase();
    const subject = h.getFirst("subject");
    const decision = await admit(store, list, {
      listIds: h.get("list-id"),
      autoSubmitted: h.getFirst("auto-submitted"),
      envelopeFrom,
      poster,
      verified: poster !== "" && h.getFirst(POSTER_HEADER.toLowerCase()).trim().toLowerCase() === poster,
      subject,
    });
    switch (decision.kind) {
      case "discard":
        return `2.0.0 Discarded: ${decision.reason}`;
      case "subscribe":
        if (await requestConfirmation(list, "subscribe", poster))
          return "2.0.0 A confirmation request is already waiting for this address";
        return "2.0.0 Subscription request sent for confirmation";
      case "unsubscribe":
        if (await requestConfirmation(list, "unsubscribe", poster))
          return "2.0.0 A confirmation request is already waiting for this address";
        return "2.0.0 Unsubscription request sent for confirmation";
      case "distribute": {
        // A big list's copies take longer than Postfix waits for an LMTP answer (lmtp_data_done_timeout, 600 s, and
        // it would then send the post again): it is kept in the database and answered at once; the pump sends it.
        const subscribers = await store.subscriberCount(list.id);
        if (subscribers > o.batchSize) {
          await store.queue(list.id, poster, subject, fs.readFileSync(file));
          void pump();
          o.log(`${list.email}: post from ${poster} queued for ${subscribers} subscribers`);
          return `2.0.0 Queued for ${subscribers} subscribers`;
        }
        const n = await distribute(list, file);
        return `2.0.0 Distributed to ${n} subscribers`;
      }
      case "replyto":
        await sendmail(
          o,
          bounceAddress(list),
          [list.replytoEmail],
          rewrittenStream(file, () => {}),
          true,
        );
        o.log(`${list.email}: subscriber's post from ${poster} sent to ${list.replytoEmail}`);
        return `2.0.0 Sent to ${list.replytoEmail}`;
      case "hold":
        await hold(list, file, poster, subject);
        return "2.0.0 Held for moderation";
      case "refuse":
        // Normally refused during the SMTP session already (Rspamd asks the policy service at the end of DATA); here
        // only when that check did not run, and then Postfix returns the message to its sender.
        o.log(`${list.email}: post from ${poster} refused after acceptance, returned to the sender (${decision.text})`);
        throw new Reply(550, decision.text);
    }
  }

  async function handleBounce(list: ListRow, address: string, file: string): Promise<string> {
    const head = Buffer.alloc(64 * 1024);
    const fd = fs.openSync(file, "r");
    const n = fs.readSync(fd, head, 0, head.length, 0);
    fs.closeSync(fd);
    const text = head.subarray(0, n).toString("utf8");
    const reason = (/^Diagnostic-Code:\s*(.+)$/im.exec(text) ?? /^Status:\s*(.+)$/im.exec(text))?.[1]?.trim() ?? "";
    await store.recordBounce(list.id, address, reason.slice(0, 500));
    o.log(`${list.email}: bounce recorded for ${address} (${reason})`);
    return "2.0.0 Bounce recorded";
  }

  async function handle(rcpt: string, file: string, envelopeFrom: string): Promise<string | Reply> {
    try {
      const target = await parseTarget(store, rcpt);
      if (!target) return new Reply(550, "5.1.1 No such list");
      return target.kind === "bounce"
        ? await handleBounce(target.list, target.address, file)
        : await handlePost(target.list, file, envelopeFrom);
    } catch (err) {
      if (err instanceof Reply) return err;
      o.log(`${rcpt}: temporary failure: ${(err as Error).message}`);
      return new Reply(451, "4.3.0 Temporary failure, try again later");
    }
  }

  const server = new SMTPServer({
    lmtp: true,
    name: "mailadmin-lists",
    banner: "mailadmin list service",
    disabledCommands: ["AUTH", "STARTTLS"],
    authOptional: true,
    hideSTARTTLS: true,
    logger: false,
    // Postfix keeps idle LMTP connections for a few seconds; do not wait 30 s for them on shutdown.
    closeTimeout: 1000,
    onRcptTo(address, _session, callback) {
      parseTarget(store, address.address).then(
        (target) =>
          target ? callback() : callback(Object.assign(new Error("5.1.1 No such list"), { responseCode: 550 })),
        () => callback(Object.assign(new Error("4.3.0 Temporary failure, try again later"), { responseCode: 451 })),
      );
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const file = path.join(o.spoolDir, `${Date.now()}-${crypto.randomBytes(6).toString("hex")}.eml`);
      const out = fs.createWriteStream(file, { mode: 0o600 });
      stream.pipe(out);
      out.on("error", (err) => callback(Object.assign(err, { responseCode: 451 })));
      out.on("finish", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        void (async () => {
          const replies: (string | Reply)[] = [];
          for (const rcpt of session.envelope.rcptTo) replies.push(await handle(rcpt.address, file, from));
          fs.rm(file, { force: true }, () => {});
          callback(null, replies);
        })();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.lmtp.port, o.lmtp.host, () => resolve());
  });
  server.on("error", (err) => o.log(`lmtp: ${err.message}`));

  let pumping: Promise<void> | undefined;
  let again = false;
  let lastExpiry = 0;
  async function pumpOnce(): Promise<void> {
    for (;;) {
      const posts = await store.approved();
      if (posts.length === 0) break;
      for (const post of posts) {
        const list = await store.listById(post.listId);
        if (list) await distribute(list, post.message);
        await store.deleteHeld(post.id);
      }
    }
    if (Date.now() - lastExpiry > 60_000) {
      lastExpiry = Date.now();
      const expired = await store.expire(Date.now() - o.heldDays * 86_400_000);
      if (expired) o.log(`expired ${expired} held posts`);
    }
  }
  /** One pump at a time; a call during a run makes it run once more (an approval may have come in meanwhile). */
  function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return pumping;
    }
    const run = async () => {
      do {
        again = false;
        try {
          await pumpOnce();
        } catch (err) {
          o.log(`pump: ${(err as Error).message}`);
        }
      } while (again);
    };
    pumping = run().finally(() => {
      pumping = undefined;
    });
    return pumping;
  }
  const timer = setInterval(() => void pump(), o.pollMs);

  const pages = await startListPages({
    host: o.http.host,
    port: o.http.port,
    store,
    peek: async (token) => {
      const t = await store.peekToken(token);
      const list = t && (await store.listById(t.listId));
      return t && list ? { list, action: t.action, address: t.address } : undefined;
    },
    confirm,
    unsubscribeTarget: async (token) => {
      const t = await readUnsubscribeToken(o.db, token);
      const list = t && (await store.listById(t.listId));
      return t && list ? { list, address: t.address } : undefined;
    },
    oneClick,
    moderation: async (token) => {
      const post = await store.heldByToken(token);
      const list = post && (await store.listById(post.listId));
      return post && list && post.status === "held" ? { post, list } : undefined;
    },
    moderate: async (token, action) => {
      const post = await store.heldByToken(token);
      if (!post || post.status !== "held") return false;
      if (action === "approve") {
        await store.approve(post.id);
        await pump();
      } else {
        await store.deleteHeld(post.id);
      }
      o.log(`held post ${post.id} ${action === "approve" ? "approved" : "rejected"} through the moderator's link`);
      return true;
    },
    requestConfirmation: async (list, action, address, client) => {
      if (action === "subscribe" && !list.autosubscribeEnabled) return "closed";
      return (await requestConfirmation(list, action, address, client)) ?? "sent";
    },
  });

  return {
    lmtpPort: (server.server.address() as AddressInfo).port,
    httpPort: pages.port,
    pump,
    async close() {
      clearInterval(timer);
      await pumping;
      copies.close();
      await pages.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
