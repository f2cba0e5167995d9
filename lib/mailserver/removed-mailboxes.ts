import "server-only";
// Deleted accounts' mailboxes (docs/mail-server.md, "Deleted accounts' mailboxes"). Deleting an account, alone or
// with its domain, records its address here in the same transaction; `mailserver events` on the mail host that held it
// removes its folder (<mail_home>, Maildir and Sieve state inside) within seconds and then the record. Until then
// mail_passdb leaves the address out, so an account created again under it cannot log in to the previous owner's mail.
import fs from "node:fs";
import path from "node:path";
import { asc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, domains, removedMailboxes } from "@/db/schema";
import { dialectOf } from "@/db/dialect";
import { withTransaction } from "@/db/transaction";
import { runToolAsync } from "./run-tool";

/**
 * Records the mailboxes of the accounts `where` selects, each with the host it lived on (its own placement, else its
 * domain's); called in the deleting transaction, before the rows go.
 */
export async function recordRemovedMailboxes(tx: Db, where: SQL): Promise<void> {
  await dialectOf(tx).run(
    tx,
    sql`INSERT INTO ${removedMailboxes} (email, host, removed_at)
        SELECT ${accounts.email}, COALESCE(${accounts.mailHost}, ${domains.mailHost}), ${Date.now()}
        FROM ${accounts} JOIN ${domains} ON ${domains.id} = ${accounts.domainId} WHERE ${where}`,
  );
}

/** The removals `host` (MAIL_HOST_NAME; undefined on a single mail host: all of them) has to make, oldest first. */
export function pendingRemovals(db: Db, host: string | undefined): Promise<{ id: number; email: string }[]> {
  return db
    .select({ id: removedMailboxes.id, email: removedMailboxes.email })
    .from(removedMailboxes)
    .where(host ? or(eq(removedMailboxes.host, host), isNull(removedMailboxes.host)) : undefined)
    .orderBy(asc(removedMailboxes.id));
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
}

/**
 * One pass on the mail host `host`: removes each pending mailbox's folder, then its record. Run after the session
 * check has ended the deleted accounts' sessions; a folder that a session still writing made again stays recorded.
 */
export async function removeMailboxes(db: Db, template: string, host: string | undefined): Promise<RemovalPass> {
  const result: RemovalPass = { removed: [], failed: [] };
  const done: number[] = [];
  for (const r of await pendingRemovals(db, host)) {
    const home = mailHomeOf(template, r.email);
    if (!home) {
      result.failed.push(`${r.email}: no folder of its own under mail_home ${template}`);
      continue;
    }
    try {
      await fs.promises.rm(home, { recursive: true, force: true });
      if (fs.existsSync(home)) throw new Error("made again while it was removed");
      result.removed.push({ email: r.email, home });
      done.push(r.id);
    } catch (err) {
      result.failed.push(`${r.email}: ${(err as Error).message}`);
    }
  }
  if (done.length > 0)
    await withTransaction(db, async (tx) => {
      for (let i = 0; i < done.length; i += 1000)
        await tx.delete(removedMailboxes).where(inArray(removedMailboxes.id, done.slice(i, i + 1000)));
    });
  return result;
}
