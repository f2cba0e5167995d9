import "server-only";
// Deleted accounts' mailboxes (docs/mail-server.md, "Deleted accounts' mailboxes"). Deleting an account, alone or
// with its domain, records its address here in the same transaction; `mailserver events` on the mail host that held it
// removes its folder (<mail_home>, Maildir and Sieve state inside) within seconds and then the record. Until then
// mail_passdb leaves the address out, so an account created again under it cannot log in to the previous owner's mail.
import fs from "node:fs";
import path from "node:path";
import { asc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, domains, mailHosts, removedMailboxes } from "@/db/schema";
import { dialectOf } from "@/db/dialect";
import { runToolAsync } from "./run-tool";

/**
 * Records the mailboxes of the accounts `where` selects, each with the host it lived on (its own placement, else its
 * domain's); called in the deleting transaction, before the rows go. A mailbox placed on no host while several hosts
 * are registered is served by each of them and may have a copy on each: it gets a record per host.
 */
export async function recordRemovedMailboxes(tx: Db, where: SQL): Promise<void> {
  await dialectOf(tx).run(
    tx,
    sql`INSERT INTO ${removedMailboxes} (email, host, removed_at)
        SELECT ${accounts.email}, COALESCE(${accounts.mailHost}, ${domains.mailHost}, ${mailHosts.name}), ${Date.now()}
        FROM ${accounts} JOIN ${domains} ON ${domains.id} = ${accounts.domainId}
        LEFT JOIN ${mailHosts} ON ${accounts.mailHost} IS NULL AND ${domains.mailHost} IS NULL
        WHERE ${where}`,
  );
}

/**
 * Removals one pass makes at most: a removed domain of 20,000 accounts took one 32 s pass, and the pass holds up the
 * session check that ends blocked accounts' and changed passwords' sessions.
 */
export const REMOVALS_PER_PASS = 500;
/** Folders removed at once (fs.rm runs on libuv's thread pool). */
const CONCURRENT_REMOVALS = 8;

/** The next `limit` removals `host` (MAIL_HOST_NAME; undefined on a single mail host: all of them) has to make, oldest first. */
/** The oldest `limit` records of mailboxes this host (or any host, for records placed on none) is to remove. */
export function pendingRemovals(
  db: Db,
  host: string | undefined,
  limit = REMOVALS_PER_PASS,
): Promise<{ id: number; email: string }[]> {
  return db
    .select({ id: removedMailboxes.id, email: removedMailboxes.email })
    .from(removedMailboxes)
    .where(host ? or(eq(removedMailboxes.host, host), isNull(removedMailboxes.host)) : undefined)
    .orderBy(asc(removedMailboxes.id))
    .limit(limit);
}

/**
 * The first of `emails` whose previous mailbox still waits for its removal: an account created again under a deleted
 * address. The policy service defers mail for it at RCPT (450) until the removal is done, since it would be stored in
 * the folder about to go.
 */
export async function awaitingRemoval(db: Db, emails: string[]): Promise<string | undefined> {
  if (emails.length === 0) return undefined;
  const [row] = await db
    .select({ email: removedMailboxes.email })
    .from(removedMailboxes)
    .where(inArray(removedMailboxes.email, emails))
    .limit(1);
  return row?.email;
}

/** Dovecot's mail_home template (`doveconf -h mail_home`, through doveadm's own configuration file). */
export async function mailHomeTemplate(doveadm: string[]): Promise<string> {
  const [command, ...global] = doveadm;
  const configFile = global[global.indexOf("-c") + 1];
  const doveconf = path.join(path.dirname(command!), "doveconf");
  const args = global.includes("-c") && configFile ? ["-c", configFile, "-h", "mail_home"] : ["-h", "mail_home"];
  return (await runToolAsync(fs.existsSync(doveconf) ? doveconf : "doveconf", args, undefined, 30_000)).trim();
}

/**
 * The folder of `email` under the mail_home template: %d the domain, %n the local part, %u the address. undefined
 * for a template with other variables, or a path that would leave the template's fixed root.
 */
export function mailHomeOf(template: string, email: string): string | undefined {
  const at = email.lastIndexOf("@");
  const [name, domain] = [email.slice(0, at), email.slice(at + 1)];
  if (at <= 0 || !template.startsWith("/")) return undefined;
  const values: Record<string, string> = { d: domain, n: name, u: email, "%": "%" };
  let unknown = false;
  const home = template.replace(/%(\{[^}]*\}|.)/g, (_, v: string) => {
    if (v in values) return values[v]!;
    unknown = true;
    return "";
  });
  const root = template.slice(0, template.indexOf("%") === -1 ? template.length : template.indexOf("%"));
  const resolved = path.resolve(home);
  if (unknown || resolved !== home.replace(/\/+$/, "") || !resolved.startsWith(root) || resolved === path.resolve(root))
    return undefined;
  return resolved;
}

export interface RemovalPass {
  /** The addresses whose folder was removed (or had none), with the folder. */
  removed: { email: string; home: string }[];
  /** An error per removal that failed; it stays for the next pass. */
  failed: string[];
  /** A full pass that removed something: the caller runs the next one without waiting for its interval. */
  more: boolean;
}

/**
 * One pass on the mail host `host`: removes up to `limit` pending mailboxes' folders, then their records. Run after
 * the session check has ended the deleted accounts' sessions; a folder that a session still writing made again stays
 * recorded.
 */
export async function removeMailboxes(
  db: Db,
  template: string,
  host: string | undefined,
  limit = REMOVALS_PER_PASS,
  records?: { id: number; email: string }[],
): Promise<RemovalPass> {
  // `records`: those read before the pass's session check (pendingRemovals), whose accounts' sessions it ended.
  const pending = records ?? (await pendingRemovals(db, host, limit));
  const result: RemovalPass = { removed: [], failed: [], more: false };
  const done: number[] = [];
  // An address may have several records (one per registered host for an unplaced mailbox): one folder, one removal.
  const ids = new Map<string, number[]>();
  for (const r of pending) {
    const list = ids.get(r.email);
    if (list) list.push(r.id);
    else ids.set(r.email, [r.id]);
  }
  const removeOne = async ([email, recordIds]: [string, number[]]) => {
    const home = mailHomeOf(template, email);
    if (!home) {
      result.failed.push(`${email}: no folder of its own under mail_home ${template}`);
      return;
    }
    try {
      await fs.promises.rm(home, { recursive: true, force: true });
      // The mail host's folder, never the app's: not a file for Next's build to trace (the API imports this module).
      if (fs.existsSync(/* turbopackIgnore: true */ home)) throw new Error("made again while it was removed");
      result.removed.push({ email, home });
      done.push(...recordIds);
    } catch (err) {
      result.failed.push(`${email}: ${(err as Error).message}`);
    }
  };
  const addresses = [...ids];
  for (let i = 0; i < addresses.length; i += CONCURRENT_REMOVALS) {
    await Promise.all(addresses.slice(i, i + CONCURRENT_REMOVALS).map(removeOne));
    // Each group's records go as soon as its folders have: `mailserver check` watches them go during a long pass.
    if (done.length > 0) await db.delete(removedMailboxes).where(inArray(removedMailboxes.id, done.splice(0)));
  }
  // Removals that keep failing fill no pass after pass: the next one waits for the session check's interval.
  result.more = pending.length === limit && result.removed.length > 0;
  return result;
}
