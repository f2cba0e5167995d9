import "server-only";
// The SMS notification queue (table sms_queue): a delivery to an inbox adds one row per configured number; the
// worker of the mail event service sends due rows and retries failures with growing delays, so a slow or broken
// gateway never delays mail delivery. A per-account hourly limit turns a flood into rows marked "skipped"; so does
// a block: a blocked account's notifications are suspended like its forwards (docs/mail-server.md).
import { and, asc, desc, eq, gte, inArray, lt, lte, ne, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Db } from "@/db/client";
import { changedRows, forUpdate, withTransaction } from "@/db/transaction";
import { accounts, smsQueue, type AccountRow, type SmsQueueRow } from "@/db/schema";
import { fill, normalizeNumber, operatorFor, smsRoute, type HttpGatewayConfig, type SmsConfig } from "./config";
import { accountsHeldHere } from "../mail-hosts";
import { decryptSmsPassword } from "./secret";
import { smsParts } from "./text";

export interface NewMail {
  subject: string;
  body: string;
}

type Plan = Pick<SmsQueueRow, "channel" | "target" | "parts" | "status" | "lastError">;

/**
 * Why a blocked account's notification is not sent. An SMS carries the subject and, with sms_cnt 1-3, the body to a
 * number or an address outside: the same leak as a forward, which a block suspends (a compromised account).
 */
export const BLOCKED_SKIP = "account blocked: notifications are suspended while it is";

function plan(config: SmsConfig, account: AccountRow, number: string, operatorCode: number, mail: NewMail): Plan {
  const route = smsRoute(config, account.smsSendTo, number, operatorCode);
  const parts = (max: number) => smsParts(mail.subject, mail.body, account.smsCnt, max);
  if ("error" in route)
    return {
      channel: account.smsSendTo === 1 ? "email" : "http",
      target: number,
      parts: parts(config.maxLength),
      status: "failed",
      lastError: route.error,
    };
  return {
    channel: route.channel,
    target: route.target,
    parts: parts(route.maxLength),
    status: "pending",
    lastError: "",
  };
}

/**
 * One of the e-mails this service sends as a notification (Auto-Submitted: auto-generated, From the configured
 * sender in any domain). Never announced in turn: an account whose number is one of its own addresses, or two that
 * notify each other, would get a notification of each notification until the hourly limit.
 */
export function isNotification(config: SmsConfig, from: string, autoSubmitted: string): boolean {
  if (!/^auto-generated\b/i.test(autoSubmitted.trim())) return false;
  const sender = new RegExp(
    `^${config.from
      .split("{domain}")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^@\\s]+")}$`,
    "i",
  );
  return sender.test(from.trim());
}

/** Rows for a message delivered to the account's inbox (none when no number is set). */
export async function enqueueNewMail(
  db: Db,
  config: SmsConfig,
  account: AccountRow,
  mail: NewMail,
  now = new Date(),
): Promise<SmsQueueRow[]> {
  const numbers = [
    { slot: 1, number: account.smsPhoneNumber1.trim(), operator: account.smsOperator1 },
    { slot: 2, number: account.smsPhoneNumber2.trim(), operator: account.smsOperator2 },
  ].filter((n) => n.number !== "");
  if (!numbers.length) return [];
  return withTransaction(db, async (tx) => {
    // The account's row locked first (PostgreSQL): two deliveries at once count each other's rows.
    await forUpdate(tx, tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, account.id)));
    const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
    let recent = Number(
      (
        await tx
          .select({ n: sql<number>`count(*)` })
          .from(smsQueue)
          .where(
            and(eq(smsQueue.accountId, account.id), gte(smsQueue.createdAt, hourAgo), ne(smsQueue.status, "skipped")),
          )
      )[0]!.n,
    );
    const rows: SmsQueueRow[] = [];
    for (const { slot, number, operator } of numbers) {
      let p = plan(config, account, number, operator, mail);
      // A blocked account's row says so whether or not it could have been sent.
      if (account.blocked) p = { ...p, status: "skipped", lastError: BLOCKED_SKIP };
      if (p.status === "pending" && config.rateLimitPerHour > 0 && recent >= config.rateLimitPerHour) {
        p = { ...p, status: "skipped", lastError: `rate limit: ${config.rateLimitPerHour} notifications per hour` };
      }
      if (p.status !== "skipped") recent++;
      const [row] = await tx
        .insert(smsQueue)
        .values({ accountId: account.id, slot, ...p, nextAttemptAt: now.toISOString(), createdAt: now.toISOString() })
        .returning();
      rows.push(row!);
    }
    return rows;
  });
}

export interface SmsTransport {
  /** Where e-mail notifications are submitted (the local Postfix). */
  smtp: { host: string; port: number };
}

async function sendHttp(gw: HttpGatewayConfig, values: Record<string, string>): Promise<void> {
  const fields = Object.fromEntries(Object.entries(gw.fields).map(([k, v]) => [k, fill(v, values)]));
  let url = fill(gw.url, values, encodeURIComponent);
  const init: RequestInit = {
    method: gw.method,
    headers: { ...gw.headers },
    signal: AbortSignal.timeout(gw.timeoutMs),
  };
  if (gw.format === "query" || gw.method === "GET") {
    const u = new URL(url);
    for (const [k, v] of Object.entries(fields)) u.searchParams.set(k, v);
    url = u.toString();
  } else if (gw.format === "json") {
    init.body = JSON.stringify(fields);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  } else {
    init.body = new URLSearchParams(fields).toString();
    (init.headers as Record<string, string>)["content-type"] = "application/x-www-form-urlencoded";
  }
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`gateway answered ${res.status}: ${text.slice(0, 200)}`);
  if (gw.successMatch && !text.includes(gw.successMatch))
    throw new Error(`gateway answered without "${gw.successMatch}": ${text.slice(0, 200)}`);
}

/** Sends one row; "blocked" when its account was blocked after the row was queued (nothing is sent). */
async function sendRow(
  db: Db,
  config: SmsConfig,
  transport: SmsTransport,
  row: SmsQueueRow,
): Promise<"sent" | "blocked"> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, row.accountId));
  if (!account) throw new Error("the account no longer exists");
  if (account.blocked) return "blocked";
  const domain = account.email.slice(account.email.indexOf("@") + 1);
  if (row.channel === "email") {
    const mailer = nodemailer.createTransport({
      host: transport.smtp.host,
      port: transport.smtp.port,
      secure: false,
      ignoreTLS: true,
    });
    try {
      for (const [i, text] of row.parts.entries()) {
        if (i < row.partsSent) continue;
        await mailer.sendMail({
          from: fill(config.from, { domain }),
          to: row.target,
          subject: row.parts.length > 1 ? `${i + 1}/${row.parts.length}` : "",
          text,
          // No X-Mailadmin header: mail leaving the host loses only the X-Mailadmin-* ones Rspamd adds (smtp_header_checks).
          headers: { "Auto-Submitted": "auto-generated" },
          envelope: { from: fill(config.from, { domain }), to: [row.target] },
        });
        await partSent(db, row, i);
      }
    } finally {
      mailer.close();
    }
    return "sent";
  }
  const n = normalizeNumber(config, row.target);
  if (!n) throw new Error(`${row.target} is not a phone number`);
  const code = row.slot === 1 ? account.smsOperator1 : account.smsOperator2;
  const gw = operatorFor(config, code, n.national)?.op.http ?? config.http;
  if (!gw) throw new Error("no HTTP SMS gateway configured by the provider");
  const login = row.slot === 1 ? account.smsLogin1 : account.smsLogin2;
  const password = decryptSmsPassword(row.slot === 1 ? account.smsPassword1 : account.smsPassword2);
  for (const [i, text] of row.parts.entries()) {
    if (i < row.partsSent) continue;
    await sendHttp(gw, { ...n, number: n.national, login, password, text });
    await partSent(db, row, i);
  }
  return "sent";
}

/**
 * Records that part `i` went out, so that a retry after a later part's failure starts after it. Through
 * withTransaction, as every write of the events service: on SQLite one on the shared connection while another holds
 * the lock blocked the event loop and failed after 5 s, and the part went out again.
 */
async function partSent(db: Db, row: SmsQueueRow, i: number): Promise<void> {
  if (row.parts.length > 1)
    await withTransaction(db, (tx) =>
      tx
        .update(smsQueue)
        .set({ partsSent: i + 1 })
        .where(eq(smsQueue.id, row.id)),
    );
}

/** Sends every due row once; failures are rescheduled (or marked failed after maxAttempts). Returns rows tried. */
export async function processSmsQueue(
  db: Db,
  config: SmsConfig,
  transport: SmsTransport,
  now = new Date(),
  hostName?: string,
): Promise<number> {
  // With several mail hosts, each sends the notifications of the mailboxes it holds (they were queued there).
  const held = accountsHeldHere(hostName);
  const due = await db
    .select()
    .from(smsQueue)
    .where(
      and(
        eq(smsQueue.status, "pending"),
        lte(smsQueue.nextAttemptAt, now.toISOString()),
        held && inArray(smsQueue.accountId, db.select({ id: accounts.id }).from(accounts).where(held)),
      ),
    )
    .orderBy(asc(smsQueue.nextAttemptAt), asc(smsQueue.id))
    .limit(50);
  for (const row of due) {
    const attempts = row.attempts + 1;
    try {
      const outcome = await sendRow(db, config, transport, row);
      const done =
        outcome === "sent"
          ? { status: "sent" as const, attempts, sentAt: new Date().toISOString(), lastError: "" }
          : { status: "skipped" as const, lastError: BLOCKED_SKIP };
      await withTransaction(db, (tx) => tx.update(smsQueue).set(done).where(eq(smsQueue.id, row.id)));
    } catch (err) {
      const delays = config.retryDelaysSeconds;
      const delay = delays[Math.min(attempts - 1, delays.length - 1)]! * 1000;
      await withTransaction(db, (tx) =>
        tx
          .update(smsQueue)
          .set({
            attempts,
            status: attempts >= config.maxAttempts ? "failed" : "pending",
            nextAttemptAt: new Date(now.getTime() + delay).toISOString(),
            lastError: (err as Error).message.slice(0, 500),
          })
          .where(eq(smsQueue.id, row.id)),
      );
    }
  }
  return due.length;
}

/** The account's latest notifications (newest first), for the postmaster's account editor. */
export function recentSmsNotifications(db: Db, accountId: number, limit = 10): Promise<SmsQueueRow[]> {
  return db.select().from(smsQueue).where(eq(smsQueue.accountId, accountId)).orderBy(desc(smsQueue.id)).limit(limit);
}

/** How long sent, failed and skipped notifications are kept (the panel shows an account's last ten). */
export const SMS_RETENTION_DAYS = 90;

/**
 * Deletes the notifications that are done (sent, failed, skipped) and older than SMS_RETENTION_DAYS, for the daily
 * housekeeping: nothing else removes them, and the queue grew with every notification ever sent.
 */
export async function trimSmsQueue(db: Db, now = Date.now()): Promise<number> {
  const before = new Date(now - SMS_RETENTION_DAYS * 86_400_000).toISOString();
  return withTransaction(db, async (tx) =>
    changedRows(
      tx,
      await tx.delete(smsQueue).where(and(ne(smsQueue.status, "pending"), lt(smsQueue.createdAt, before))),
    ),
  );
}
