import "server-only";
// `mailserver housekeeping`, run daily (systemd timer, docs/deploy.md): expunges messages past each account's
// *_delete_after days with doveadm, then delivers the usage warning to accounts at or above usage_notification_level,
// at most once per 24 h.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { withTransaction } from "@/db/transaction";
import { accounts, type AccountRow } from "@/db/schema";
import { trimAudit } from "@/lib/server/resources/audit";
import { env } from "@/lib/server/env";
import { accountsHeldHere, checkedMailHost } from "./mail-hosts";
import { MAILBOXES, saveBeyondQuota } from "./mailboxes";
import { runTool, runToolAsync, ToolError } from "./run-tool";
import { SMS_RETENTION_DAYS, trimSmsQueue } from "./sms/queue";
import { usageWarningMessage } from "./usage-warning";

export interface HousekeepingOptions {
  /** The doveadm command, with any global options (for example ["doveadm", "-c", "/etc/dovecot/dovecot.conf"]). */
  doveadm: string[];
  /** The run's time (default: the current time): the expunge cutoffs and the 24 h between warnings count from it. */
  now?: Date;
  /** This host's name (MAIL_HOST_NAME): only the mailboxes it holds (mail-hosts.ts); unset: every mailbox. */
  hostName?: string;
  /** Users per doveadm expunge run (EXPUNGE_BATCH unless a test sets it). */
  expungeBatch?: number;
}

export interface HousekeepingReport {
  /** One line per doveadm expunge run: mailbox, days, number of accounts. */
  expunged: string[];
  warned: string[];
  /** What failed, with doveadm's error: expunge runs, and warnings that could not be saved (tried again next run). */
  failed: string[];
  /** Audit log entries older than AUDIT_RETENTION_DAYS, deleted. */
  audit: { days: number; deleted: number };
  /** SMS notifications done (sent, failed, skipped) more than SMS_RETENTION_DAYS ago, deleted. */
  sms: { days: number; deleted: number };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Users per doveadm expunge run. A run is killed after runTool's 10 minutes, and doveadm takes about 2 ms a user and
 * folder even when the folder is empty: one run for every account of a 250,000-mailbox host was killed every day,
 * leaving the same accounts unexpunged. 5,000 users take seconds.
 */
export const EXPUNGE_BATCH = 5_000;

/**
 * Which date counts: the inbox by arrival (`before`: received date), Trash and Spam by when the message was put
 * there (`savedbefore`), so a years-old message moved to Trash today still gets its full trash_delete_after days.
 */
const RULES = [
  { mailbox: MAILBOXES.inbox, column: accounts.inboxDeleteAfter, search: "before" },
  { mailbox: MAILBOXES.trash, column: accounts.trashDeleteAfter, search: "savedbefore" },
  { mailbox: MAILBOXES.spam, column: accounts.spamDeleteAfter, search: "savedbefore" },
] as const;

/**
 * Dovecot is not running: doveadm could not reach its auth service, so every further doveadm run would fail the same
 * way (after a panic of doveadm's own). The run stops at once with this one line.
 */
export class DovecotNotRunning extends Error {}

/** DovecotNotRunning when `err` is doveadm failing to reach Dovecot's auth service socket; else `err` itself. */
function whenDovecotDown(err: unknown): unknown {
  const m =
    err instanceof ToolError &&
    /connect\(([^)]*\/auth-[^)]*)\) failed: (Connection refused|No such file or directory)/.exec(err.output);
  if (!m) return err;
  return new DovecotNotRunning(
    `Dovecot is not running (doveadm could not reach its auth service, ${m[1]}: ${m[2]}): housekeeping stopped; ` +
      "start Dovecot and run it again",
  );
}

/** A failure throws the tool's own stderr (ToolError). */
function doveadm(o: HousekeepingOptions, args: string[], input?: string): void {
  const [command, ...global] = o.doveadm;
  runTool(command!, [...global, ...args], input);
}

/**
 * One `doveadm expunge -F <users>` per mailbox, number of days (0 disables) and EXPUNGE_BATCH users, not one per
 * account. doveadm goes on past a user it cannot expunge (an unreadable mailbox) and then fails; that is reported,
 * and the other runs go on.
 * The user-list files are removed only when every run succeeded: a failure names its file for the operator.
 * The cutoff goes to doveadm as a UNIX time, `now` less the days: exact to the second like doveadm's own `Nd`, which
 * would count from doveadm's clock instead of the run's.
 */
async function expungeOld(db: Db, o: HousekeepingOptions): Promise<{ done: string[]; failed: string[] }> {
  const now = (o.now ?? new Date()).getTime();
  const done: string[] = [];
  const failed: string[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-housekeeping-"));
  try {
    await expungeRuns(db, o, now, dir, done, failed);
  } catch (err) {
    // Dovecot down (or the database failing): no user list is worth keeping, each run would be tried again.
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  if (failed.length === 0) fs.rmSync(dir, { recursive: true, force: true });
  return { done, failed };
}

async function expungeRuns(
  db: Db,
  o: HousekeepingOptions,
  now: number,
  dir: string,
  done: string[],
  failed: string[],
): Promise<void> {
  for (const rule of RULES) {
    // Only mailboxes that hold messages (usage_messages, which quota_clone writes): doveadm creates the Maildir and
    // its indexes of every user it opens, about 92 KB for an account that never got mail (218 MB for a provider's
    // 2,329 new accounts in one run; ~100 GB and tens of millions of inodes at a million).
    const rows = await db
      .select({ days: rule.column, email: accounts.email })
      .from(accounts)
      .where(and(gt(rule.column, 0), gt(accounts.usageMessages, 0), accountsHeldHere(o.hostName)))
      .orderBy(rule.column, accounts.id);
    const byDays = new Map<number, string[]>();
    for (const r of rows) {
      const emails = byDays.get(r.days);
      if (emails) emails.push(r.email);
      else byDays.set(r.days, [r.email]);
    }
    const batch = o.expungeBatch ?? EXPUNGE_BATCH;
    for (const [days, emails] of byDays) {
      const cutoff = String(Math.floor((now - days * DAY_MS) / 1000));
      for (let from = 0; from < emails.length; from += batch) {
        const users = emails.slice(from, from + batch);
        const file = path.join(dir, `${rule.mailbox}-${days}-${from / batch}`);
        fs.writeFileSync(file, `${users.join("\n")}\n`);
        const part = emails.length > batch ? ` (${from + 1}-${from + users.length} of ${emails.length})` : "";
        const what = `${rule.mailbox}: ${rule.search} ${days}d, ${users.length} account(s)${part}`;
        try {
          doveadm(o, ["expunge", "-F", file, "mailbox", rule.mailbox, rule.search, cutoff]);
          done.push(what);
        } catch (err) {
          const down = whenDovecotDown(err);
          if (down !== err) throw down;
          // doveadm's own line names the command, the user-list file and its stderr.
          failed.push(err instanceof Error ? err.message : `expunge ${what}: ${String(err)}`);
        }
      }
    }
  }
}

/**
 * Claims the account's warning for now when its last one is older than 24 h: one UPDATE, so the delivery-time
 * hook (`mailserver events`) and this daily run never both send one. The row as claimed, or undefined.
 */
async function claimWarning(db: Db, accountId: number, now: Date): Promise<AccountRow | undefined> {
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const [claimed] = await withTransaction(db, (tx) =>
    tx
      .update(accounts)
      .set({ usageWarnedAt: now.toISOString() })
      .where(
        and(
          eq(accounts.id, accountId),
          sql`(${accounts.usageWarnedAt} = '' OR ${accounts.usageWarnedAt} <= ${dayAgo})`,
        ),
      )
      .returning(),
  );
  return claimed;
}

/** Gives the warning back (it was not delivered): the next crossing, or the daily run, tries again. */
const unclaimWarning = (db: Db, account: AccountRow) =>
  withTransaction(db, (tx) =>
    tx.update(accounts).set({ usageWarnedAt: account.usageWarnedAt }).where(eq(accounts.id, account.id)),
  );

/**
 * At delivery: Dovecot's quota_warning reports that `user` crossed `level` percent (the generated configuration
 * has one warning per percent, and Dovecot runs only the highest crossed). Warns when that reaches the account's
 * usage_notification_level and no warning went out in the last 24 h.
 */
export async function deliverUsageWarning(
  db: Db,
  doveadmCommand: string[],
  user: string,
  level: number,
  now = new Date(),
): Promise<string> {
  const [account] = await db.select().from(accounts).where(eq(accounts.email, user.toLowerCase()));
  if (!account) return "unknown account";
  if (account.usageNotificationLevel === 0 || !(level >= account.usageNotificationLevel))
    return "below the account's level";
  const claimed = await claimWarning(db, account.id, now);
  if (!claimed) return "already warned within 24 h";
  const [command, ...global] = doveadmCommand;
  const percent = Math.max(claimed.usagePercent, level);
  try {
    await runToolAsync(
      command!,
      [...global, ...saveBeyondQuota(claimed.email, MAILBOXES.inbox)],
      usageWarningMessage({ ...claimed, usagePercent: percent }, now),
    );
  } catch (err) {
    // Not delivered: give the next crossing (or the daily run) its chance.
    await unclaimWarning(db, account);
    throw err;
  }
  return `warned at ${percent}%`;
}

/** Accounts at or above their level whose last warning is older than 24 h get one (usage_notification_level 0: never). */
async function warnUsage(db: Db, o: HousekeepingOptions): Promise<{ warned: string[]; failed: string[] }> {
  const now = o.now ?? new Date();
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const due = await db
    .select()
    .from(accounts)
    .where(
      and(
        gt(accounts.usageNotificationLevel, 0),
        sql`${accounts.usagePercent} >= ${accounts.usageNotificationLevel}`,
        sql`(${accounts.usageWarnedAt} = '' OR ${accounts.usageWarnedAt} <= ${dayAgo})`,
        accountsHeldHere(o.hostName),
      ),
    )
    .orderBy(accounts.id);
  const warned: string[] = [];
  const failed: string[] = [];
  for (const account of due) {
    if (!(await claimWarning(db, account.id, now))) continue;
    try {
      doveadm(o, saveBeyondQuota(account.email, MAILBOXES.inbox), usageWarningMessage(account, now));
      warned.push(`${account.email}: ${account.usagePercent}%`);
    } catch (err) {
      // Given back for tomorrow's run; one account's failure does not keep the others from their warnings.
      await unclaimWarning(db, account);
      const down = whenDovecotDown(err);
      if (down !== err) throw down;
      failed.push(`usage warning ${account.email}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { warned, failed };
}

export async function runHousekeeping(db: Db, o: HousekeepingOptions): Promise<HousekeepingReport> {
  // Under a name no host has, only the mailboxes placed on no host looked held here: the rest were neither expunged
  // nor warned, and the run said "nothing to do".
  await checkedMailHost(db, o.hostName);
  const days = env().AUDIT_RETENTION_DAYS;
  // Each part runs whatever failed before it: one broken mailbox must not hold up every other account's upkeep.
  const expunge = await expungeOld(db, o);
  const warn = await warnUsage(db, o);
  return {
    expunged: expunge.done,
    warned: warn.warned,
    failed: [...expunge.failed, ...warn.failed],
    audit: { days, deleted: await trimAudit(db, days) },
    sms: { days: SMS_RETENTION_DAYS, deleted: await trimSmsQueue(db, o.now?.getTime()) },
  };
}
