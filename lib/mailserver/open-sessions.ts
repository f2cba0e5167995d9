import "server-only";
// Ends the open Dovecot sessions (IMAP, POP3, ManageSieve) of users who may no longer log in: blocked, expired,
// deleted (with their domain too). Dovecot's passdb refuses only new logins; a session opened before the change
// would go on for days (an IMAP client in IDLE keeps reading new mail). `mailserver events` runs this every few
// seconds on each mail host (docs/mail-server.md, "Open sessions").
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
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
 * One check: who is connected, then (only when anyone is) which of them may log in, then `doveadm kick` for each
 * other one. Returns the users whose sessions were ended and the kicks that failed (doveadm's own error: the others
 * are still kicked). Throws when `doveadm who` or the query fails.
 */
export async function endRefusedSessions(db: Db, doveadm: string[]): Promise<{ ended: string[]; failed: string[] }> {
  const [command, ...global] = doveadm;
  const users = connectedUsers(await runToolAsync(command!, [...global, "-f", "tab", "who", "-1"], undefined, 30_000));
  if (users.length === 0) return { ended: [], failed: [] };
  const allowed = await mayLogIn(db, users);
  // doveadm kick takes a mask: a name with * or ? (none the API accepts) would end other users' sessions too.
  const refused = users.filter((u) => !allowed.has(u) && !/[*?]/.test(u));
  const ended: string[] = [];
  const failed: string[] = [];
  for (const user of refused) {
    try {
      await runToolAsync(command!, [...global, "kick", user], undefined, 30_000);
      ended.push(user);
    } catch (err) {
      // 68 (EX_NOUSER): "no users kicked", the session ended by itself meanwhile.
      if (err instanceof ToolError && err.status === 68) ended.push(user);
      else failed.push((err as Error).message);
    }
  }
  return { ended, failed };
}
