import "server-only";
// Ends the open Dovecot sessions (IMAP, POP3, ManageSieve) of users who may no longer log in (blocked, expired,
// deleted, with their domain too) and of accounts whose mail password changed. Dovecot's passdb decides only at
// login; a session opened before the change would go on for days (an IMAP client in IDLE keeps reading new mail).
// `mailserver events` runs this every few seconds on each mail host (docs/mail-server.md, "Open sessions").
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import { markPasswordChangesHandled, unhandledPasswordChanges } from "./password-changes";
import { runToolAsync, ToolError } from "./run-tool";

/**
 * The users with a session, from `doveadm -f tab who -1` (a header, then username, proto, pid, ip per connection).
 * LMTP is left out: with lmtp_user_concurrency_limit set, deliveries are listed too, and a blocked account still
 * receives mail.
 */
export function connectedUsers(who: string): string[] {
  const users = new Set<string>();
  for (const line of who.split("\n").slice(1)) {
    const [user, proto] = line.split("\t");
    if (user && proto !== "lmtp") users.add(user);
  }
  return [...users];
}

/**
 * Of `users`, those who may log in: the rows of mail_passdb, the view Dovecot's passdb reads, so the rule (not
 * blocked, not expired, a mail password) is written once. One query, however many users.
 */
export async function mayLogIn(db: Db, users: string[]): Promise<Set<string>> {
  const d = dialectOf(db);
  const rows = await d.all<{ user: string }>(
    db,
    sql`SELECT p."user" AS "user" FROM mail_passdb p
        WHERE p."user" IN (SELECT j.value FROM ${d.jsonArrayRows(sql`${JSON.stringify(users)}`)} j)`,
  );
  return new Set(rows.map((r) => r.user));
}

/**
 * On PostgreSQL a change is marked handled only once it is this old, and until then every check ends its user's
 * sessions: Dovecot's passdb may read a replica that has not replayed it yet and still takes the old password, also
 * after a check. On SQLite Dovecot reads the same file, so the first check marks it.
 */
export const PASSWORD_CHANGE_SETTLE_MS = 15_000;

export interface SessionCheck {
  /** Users whose sessions were ended because they may no longer log in. */
  ended: string[];
  /** Users whose sessions were ended because their mail password changed (and who may still log in). */
  passwordChanged: string[];
  /** doveadm's own error of each kick that failed (the others are still kicked). */
  failed: string[];
}

/**
 * One check on the mail host `host` (MAIL_HOST_NAME, '' without one): the password changes it has not handled yet
 * (one query), who is connected, then (only when anyone is) which of them may log in, then `doveadm kick` for each
 * user who may not or whose password changed. A change is marked handled once its user is not connected or was
 * kicked, on PostgreSQL not before PASSWORD_CHANGE_SETTLE_MS after it; a failed kick leaves it for the next check.
 * Throws when `doveadm who` or a query fails.
 */
export async function endRefusedSessions(db: Db, doveadm: string[], host = ""): Promise<SessionCheck> {
  const [command, ...global] = doveadm;
  // Read before `who`: a session listed after the change committed is kicked, even one just opened with the new
  // password (its client logs in again).
  const changes = await unhandledPasswordChanges(db, host);
  const users = connectedUsers(await runToolAsync(command!, [...global, "-f", "tab", "who", "-1"], undefined, 30_000));
  const allowed = users.length > 0 ? await mayLogIn(db, users) : new Set<string>();
  const changed = new Set(changes.map((c) => c.email.toLowerCase()));
  // doveadm kick takes a mask: a name with * or ? (none the API accepts) would end other users' sessions too.
  const toKick = users.filter((u) => (!allowed.has(u) || changed.has(u.toLowerCase())) && !/[*?]/.test(u));
  const result: SessionCheck = { ended: [], passwordChanged: [], failed: [] };
  const notKicked = new Set<string>();
  for (const user of toKick) {
    const done = () => (allowed.has(user) ? result.passwordChanged : result.ended).push(user);
    try {
      await runToolAsync(command!, [...global, "kick", user], undefined, 30_000);
      done();
    } catch (err) {
      // 68 (EX_NOUSER): "no users kicked", the session ended by itself meanwhile.
      if (err instanceof ToolError && err.status === 68) done();
      else {
        result.failed.push((err as Error).message);
        notKicked.add(user.toLowerCase());
      }
    }
  }
  const settled = Date.now() - (dialectOf(db).name === "postgres" ? PASSWORD_CHANGE_SETTLE_MS : 0);
  const handled = changes
    .filter((c) => !notKicked.has(c.email.toLowerCase()) && Number(c.changedAt) <= settled)
    .map((c) => c.id);
  if (handled.length > 0) await markPasswordChangesHandled(db, host, handled);
  return result;
}
