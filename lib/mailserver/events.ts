import "server-only";
// `mailserver events`: the small HTTP service (loopback only) that Dovecot calls while mail flows, so the panel's
// records take effect at once instead of in the daily housekeeping run:
//   POST /auth-policy   Dovecot's auth policy check before and report after every authentication (IMAP, POP3,
//                       SMTP AUTH via Dovecot SASL): the login lock, last_auth_date / last_auth_ip
//   POST /quota-warning the quota_warning script when usage crosses a percentage: the usage warning
//   POST /new-mail      the push_notification Lua driver for a message saved into an inbox by LMTP: SMS queue
//   POST /forwarded-mail a forward-only account's Sieve script with a message it forwards: SMS queue
// the SMS queue's worker, and every few seconds the end of open sessions of users who may no longer log in or whose
// mail password changed (open-sessions.ts). Each request answers quickly; slow work (SMS gateways) happens in the worker.
import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { and, eq, inArray, ne } from "drizzle-orm";
import { simpleParser, type AddressObject } from "mailparser";
import type { Db } from "@/db/client";
import { accounts, listMembers, mailingLists, type AccountRow } from "@/db/schema";
import { dkimFileSync } from "./dkim";
import { deliverUsageWarning } from "./housekeeping";
import { mailAuthPolicy } from "./last-login";
import { checkedMailHost } from "./mail-hosts";
import { endRefusedSessions } from "./open-sessions";
import { prunePasswordChanges } from "./password-changes";
import { mailHomeTemplate, pendingRemovals, removeMailboxes, REMOVALS_PER_PASS } from "./removed-mailboxes";
import type { SmsConfig } from "./sms/config";
import { enqueueNewMail, isNotification, processSmsQueue, type SmsTransport } from "./sms/queue";

const exec = promisify(execFile);

export interface MailEventsOptions {
  db: Db;
  /** The doveadm command with global options, as for housekeeping. */
  doveadm: string[];
  sms: SmsConfig;
  transport: SmsTransport;
  host?: string;
  port?: number;
  /** Keeps Rspamd's DKIM key files in step with dkim_keys (every dkim.intervalMs, 5 s by default). */
  dkim?: { dir: string; group?: string; intervalMs?: number };
  /** How often the SMS worker looks for due rows (ms). */
  queueIntervalMs?: number;
  /**
   * How often this host's open Dovecot sessions of users who may no longer log in or whose password changed are
   * ended (ms; default SESSION_CHECK_MS, 0: never).
   */
  sessionCheckMs?: number;
  /**
   * This host's name (MAIL_HOST_NAME): the SMS worker sends only for the mailboxes held here (mail-hosts.ts), and the
   * session check marks the password changes it has handled under it.
   */
  hostName?: string;
  log?: (line: string) => void;
}

/**
 * A blocked, expired or deleted account's open IMAP/POP3 session, or one of an account whose password changed, ends
 * within this (plus the check's own time).
 */
export const SESSION_CHECK_MS = 5_000;

/** How often the session check also deletes the password changes past their keeping time. */
const PRUNE_EVERY_MS = 3_600_000;

export interface MailEvents {
  url: string;
  port: number;
  close(): Promise<void>;
  /** Resolves when the worker has gone through the due rows once more (tests). */
  drain(): Promise<void>;
}

async function body(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) throw new Error("request too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => (v.address ?? "").toLowerCase()));

/**
 * How many distinct addresses of a message's From, and of its To and Cc, are looked up as lists: anyone may send a
 * message with thousands of addresses in To and Cc, and the lookup comes before the SMS rate limit. A moderated list
 * named past them is not seen, and the message is announced as mail to the account.
 */
export const MAX_ADDRESSES_LOOKED_UP = 50;

/**
 * Mail to a moderated or closed list (privacy_mode 1, 2) reaches only its moderators, for them to approve
 * (docs/mail-server.md): a message with such a list in To/Cc, the account one of its moderators and not itself
 * addressed, is list traffic to moderate, not mail to announce by SMS. So is what the list service sends a moderator
 * (lib/lists: the "Do moderacji" request, From the list's own address). One query, over the first
 * MAX_ADDRESSES_LOOKED_UP distinct addresses of each.
 */
async function onlyModerating(
  db: Db,
  accountEmail: string,
  recipients: string[],
  senders: string[] = [],
): Promise<boolean> {
  const first = (list: string[]) => [...new Set(list.filter((a) => a !== ""))].slice(0, MAX_ADDRESSES_LOOKED_UP);
  // A message addressed to the account itself is announced, unless a list it moderates sent it.
  const candidates = [...new Set([...first(senders), ...(recipients.includes(accountEmail) ? [] : first(recipients))])];
  if (candidates.length === 0) return false;
  const [moderated] = await db
    .select({ id: mailingLists.id })
    .from(mailingLists)
    .innerJoin(listMembers, eq(listMembers.listId, mailingLists.id))
    .where(
      and(
        inArray(mailingLists.email, candidates),
        ne(mailingLists.privacyMode, 0),
        eq(listMembers.role, "moderator"),
        eq(listMembers.address, accountEmail),
      ),
    )
    .limit(1);
  return !!moderated;
}

export async function startMailEvents(o: MailEventsOptions): Promise<MailEvents> {
  // Before anything listens: under a name no host has, the SMS worker and the session check would skip this host's
  // own mailboxes.
  await checkedMailHost(o.db, o.hostName);
  const log = o.log ?? ((line: string) => console.log(line));
  const [doveadm, ...global] = o.doveadm;

  /** The message's UID; Dovecot reports 0 for one saved while another process held the Maildir's UID list. */
  async function inboxUid(email: string, uid: string, messageId: string): Promise<string | undefined> {
    if (uid !== "0") return uid;
    if (!messageId.trim()) return undefined;
    const { stdout } = await exec(doveadm!, [
      ...global,
      "search",
      "-u",
      email,
      "mailbox",
      "INBOX",
      "header",
      "message-id",
      messageId.trim(),
    ]);
    // "<mailbox GUID> <UID>" per match; the last one saved is the newest.
    const uids = stdout.split("\n").flatMap((line) => /^\S+ (\d+)$/.exec(line)?.[1] ?? []);
    return uids.sort((a, b) => Number(a) - Number(b)).at(-1);
  }

  async function newMail(user: string, mailbox: string, reported: string, messageId: string): Promise<string> {
    if (mailbox !== "INBOX" || !/^\d+$/.test(reported)) return "not the inbox";
    const [account] = await o.db.select().from(accounts).where(eq(accounts.email, user.toLowerCase()));
    if (!account) return "unknown account";
    if (!account.smsPhoneNumber1.trim() && !account.smsPhoneNumber2.trim()) return "no SMS numbers";
    const uid = await inboxUid(account.email, reported, messageId);
    if (!uid) return "no UID and no Message-ID found in the inbox: not notified";
    const { stdout } = await exec(
      doveadm!,
      [...global, "-f", "pager", "fetch", "-u", account.email, "text", "mailbox", "INBOX", "uid", uid],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    return notify(account, stdout.replace(/^text:\n/, "").replace(/\n\f\n?$/, ""));
  }

  /**
   * A forward-only account's forwarded message (its Sieve script pipes it here): notified as if it were stored. Any
   * local process may call this port and name any account, so only an account whose script does pipe here is
   * notified: forward-only as db/sieve-scripts-view.ts has it (keep_mail 0, not blocked, with forwards). Another's
   * mail is stored, and the new-mail event announces it.
   */
  async function forwardedMail(user: string, raw: string): Promise<string> {
    const [account] = await o.db.select().from(accounts).where(eq(accounts.email, user.toLowerCase()));
    if (!account) return "unknown account";
    if (account.keepMail !== 0 || account.blocked !== 0 || account.forwards.length === 0)
      return "not a forward-only account";
    if (!account.smsPhoneNumber1.trim() && !account.smsPhoneNumber2.trim()) return "no SMS numbers";
    return notify(account, raw);
  }

  async function notify(account: AccountRow, raw: string): Promise<string> {
    const msg = await simpleParser(raw);
    // A plain header: mailparser keeps its value as a string.
    const autoSubmitted = msg.headers.get("auto-submitted");
    if (isNotification(o.sms, addresses(msg.from)[0] ?? "", typeof autoSubmitted === "string" ? autoSubmitted : ""))
      return "a notification of this service";
    if (await onlyModerating(o.db, account.email, [...addresses(msg.to), ...addresses(msg.cc)], addresses(msg.from)))
      return "list traffic to moderate";
    const rows = await enqueueNewMail(o.db, o.sms, account, { subject: msg.subject ?? "", body: msg.text ?? "" });
    kick();
    return `queued ${rows.length}`;
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const reply = (status: number, text: string, type = "text/plain") => {
      res.writeHead(status, { "content-type": type });
      res.end(text);
    };
    if (req.method !== "POST") return reply(405, "POST only");
    body(req)
      .then(async (text) => {
        switch (url.pathname) {
          case "/auth-policy": {
            // Dovecot sends {"login":..., "remote":..., ...} with command=allow before each authentication and
            // command=report (with "success") after it.
            const data = JSON.parse(text || "{}") as Record<string, unknown>;
            const answer = await mailAuthPolicy(o.db, url.searchParams.get("command"), data);
            return reply(200, JSON.stringify(answer), "application/json");
          }
          case "/quota-warning": {
            const form = new URLSearchParams(text);
            const result = await deliverUsageWarning(
              o.db,
              o.doveadm,
              form.get("user") ?? "",
              Number(form.get("level")),
            );
            log(`quota-warning ${form.get("user")} ${form.get("level")}%: ${result}`);
            return reply(200, result);
          }
          case "/new-mail": {
            // Answered at once: the delivery waits for this answer, and reading the message waits for nothing.
            const form = new URLSearchParams(text);
            reply(202, "accepted");
            const what = `new-mail ${form.get("user")} ${form.get("mailbox")} uid ${form.get("uid")}`;
            const [user, mailbox, uid] = [form.get("user") ?? "", form.get("mailbox") ?? "", form.get("uid") ?? ""];
            return newMail(user, mailbox, uid, form.get("message_id") ?? "").then(
              (result) => log(`${what}: ${result}`),
              (err: Error) => log(`${what}: ${err.message}`),
            );
          }
          case "/forwarded-mail": {
            // The message itself (its first 256 kB) from a forward-only account's Sieve script; answered at once.
            const user = String(req.headers["x-mailadmin-user"] ?? "");
            reply(202, "accepted");
            const what = `forwarded-mail ${user}`;
            return forwardedMail(user, text).then(
              (result) => log(`${what}: ${result}`),
              (err: Error) => log(`${what}: ${err.message}`),
            );
          }
          default:
            return reply(404, "not found");
        }
      })
      .catch((err: Error) => {
        log(`mail events ${url.pathname}: ${err.message}`);
        reply(500, err.message);
      });
  });

  // The SMS worker: one pass at a time, every queueIntervalMs and right after a new row.
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const pass = () => {
    running = running
      .then(() => processSmsQueue(o.db, o.sms, o.transport, undefined, o.hostName))
      .then(() => undefined)
      .catch((err: Error) => log(`sms queue: ${err.message}`));
    return running;
  };
  const kick = () => void pass();
  timer = setInterval(kick, o.queueIntervalMs ?? 15_000);
  let dkimTimer: NodeJS.Timeout | undefined;
  if (o.dkim) {
    const { dir, group, intervalMs } = o.dkim;
    const pass = dkimFileSync(o.db, dir, group);
    const sync = () => {
      pass().catch((err: Error) => log(`dkim keys: ${err.message}`));
    };
    sync();
    dkimTimer = setInterval(sync, intervalMs ?? 5_000);
  }

  // Open sessions: one check at a time; a check still running when the next is due makes that one skipped.
  let sessionCheck: Promise<void> | undefined;
  // Once per distinct error: Dovecot down would otherwise log the same line every few seconds.
  const lastError = { sessions: "", mailboxes: "" };
  const reportError = (kind: keyof typeof lastError, message: string) => {
    if (message && message !== lastError[kind]) log(`${kind}: ${message}`);
    lastError[kind] = message;
  };
  let prunedAt = 0;
  let homeTemplate: string | undefined;
  // A big removal (a domain's accounts) goes on pass after pass, each after the sessions were checked again.
  let removalsLeft = false;
  let closing = false;
  const checkSessions = () => {
    const prune = Date.now() - prunedAt >= PRUNE_EVERY_MS;
    sessionCheck ??= (prune ? prunePasswordChanges(o.db) : Promise.resolve(0))
      .then(async () => {
        if (prune) prunedAt = Date.now();
        // The records there before the sessions are checked: an account deleted between the check and the removal
        // would lose its folder under an open session, which then ended by Dovecot's error, not by this service.
        const removable = await pendingRemovals(o.db, o.hostName);
        return { removable, ...(await endRefusedSessions(o.db, o.doveadm, o.hostName ?? "")) };
      })
      .then(async ({ removable, ended, passwordChanged, failed }) => {
        for (const user of ended) log(`sessions: ended ${user} (may no longer log in)`);
        for (const user of passwordChanged) log(`sessions: ended ${user} (password changed)`);
        // After the deleted accounts' sessions have ended: their folders (removed-mailboxes.ts).
        homeTemplate ??= await mailHomeTemplate(o.doveadm);
        const removal = await removeMailboxes(o.db, homeTemplate, o.hostName, REMOVALS_PER_PASS, removable);
        for (const r of removal.removed) log(`mailboxes: removed ${r.email} (${r.home})`);
        removalsLeft = removal.more;
        reportError("sessions", failed.join(" | "));
        reportError("mailboxes", removal.failed.length ? `not removed: ${removal.failed.join(" | ")}` : "");
      })
      .catch((err: Error) => {
        removalsLeft = false;
        reportError("sessions", err.message);
      })
      .finally(() => {
        sessionCheck = undefined;
        if (removalsLeft) setImmediate(() => closing || checkSessions());
      });
  };
  const sessionEvery = o.sessionCheckMs ?? SESSION_CHECK_MS;
  const sessionTimer = sessionEvery > 0 ? setInterval(checkSessions, sessionEvery) : undefined;

  await new Promise<void>((resolve, reject) =>
    server.once("error", reject).listen(o.port ?? 0, o.host ?? "127.0.0.1", resolve),
  );
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${o.host ?? "127.0.0.1"}:${port}`,
    port,
    drain: () => pass(),
    async close() {
      clearInterval(timer);
      clearInterval(dkimTimer);
      clearInterval(sessionTimer);
      closing = true;
      timer = undefined;
      await running;
      await sessionCheck;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
