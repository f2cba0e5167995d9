// A submission session that signed in before its account's password changed sends no more (docs/mail-server.md,
// "Open sessions"). Postfix checks the password only at AUTH and tells the policy service nothing about when that
// was, so the service records in the database (submission_sessions, shared by every host and kept over restarts), per
// session, the earliest moment it knows the session was already signed in: the start of the first transaction it was
// asked about (Postfix's `instance` attribute carries the MAIL FROM time, and AUTH is refused inside a transaction,
// so the login came before it). A password change recorded after that moment
// (mail_password_changes, written by the trigger on accounts.mail_password_hash, kept a day) means the session
// logged in with the old password: its RCPTs and its end of DATA are refused. A change recorded before it says
// nothing (the session may have logged in with the new password), so the session goes on.
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import { withTransaction } from "@/db/transaction";
import { PASSWORD_CHANGE_KEEP_MS } from "../password-changes";

/** What the session check reads of Postfix's policy request (every request carries these attributes). */
export interface SessionRequest {
  sasl_username?: string;
  client_address?: string;
  client_port?: string;
  server_address?: string;
  server_port?: string;
  /** smtpd's "<pid>.<MAIL FROM seconds>.<microseconds>.<transaction number in the session>", in hex. */
  instance?: string;
}

/** The parts of `instance`: smtpd's pid, the transaction's MAIL FROM time (epoch ms) and its number in the session. */
export function parseInstance(instance: string): { pid: string; mailAt: number; seqno: number } | undefined {
  const m = /^([0-9a-f]+)\.([0-9a-f]+)\.([0-9a-f]+)\.([0-9a-f]+)$/i.exec(instance);
  if (!m) return undefined;
  const mailAt = parseInt(m[2]!, 16) * 1000 + Math.floor(parseInt(m[3]!, 16) / 1000);
  return { pid: m[1]!.toLowerCase(), mailAt, seqno: parseInt(m[4]!, 16) };
}

export class SignedInSessions {
  /** When this service last deleted the sessions not asked about for as long as a change is kept. */
  private prunedAt = -Infinity;

  constructor(
    private readonly db: Db,
    /** The real clock: changes are stamped by the database's, which NTP keeps in step with the mail hosts'. */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The epoch ms by which this request's session had signed in, kept in submission_sessions for its later requests,
   * whichever host's policy service they reach and across restarts. A session is its login, both ends of the
   * connection and smtpd's pid; a new connection that reuses all of them (the same client port again, on the same
   * smtpd process) starts again at transaction 0 with another instance, and is a new session.
   */
  async signedInBy(req: SessionRequest): Promise<number> {
    const now = this.now();
    const parsed = parseInstance(req.instance ?? "");
    const session = [
      (req.sasl_username ?? "").toLowerCase(),
      req.client_address ?? "",
      req.client_port ?? "",
      req.server_address ?? "",
      req.server_port ?? "",
      parsed?.pid ?? "",
    ].join("\n");
    // Not later than now: a MAIL FROM time ahead of this host's clock would otherwise move the session's start on.
    const started = Math.min(parsed?.mailAt ?? now, now);
    const seqno = parsed?.seqno ?? -1;
    const known = sql.raw("submission_sessions");
    const same = sql`(excluded.seqno < 0 OR ${known}.seqno < 0 OR ${known}.instance = excluded.instance OR excluded.seqno > ${known}.seqno)`;
    return withTransaction(this.db, async (tx) => {
      if (now - this.prunedAt >= 60_000) {
        this.prunedAt = now;
        await dialectOf(tx).run(tx, sql`DELETE FROM submission_sessions WHERE seen < ${now - PASSWORD_CHANGE_KEEP_MS}`);
      }
      const [row] = await dialectOf(tx).all<{ since: number | string }>(
        tx,
        sql`INSERT INTO submission_sessions (session, since, instance, seqno, seen)
          VALUES (${session}, ${started}, ${req.instance ?? ""}, ${seqno}, ${now})
          ON CONFLICT (session) DO UPDATE SET
            since = CASE WHEN ${same} AND ${known}.since < excluded.since THEN ${known}.since ELSE excluded.since END,
            instance = excluded.instance, seqno = excluded.seqno, seen = excluded.seen
          RETURNING since`,
      );
      // PostgreSQL's bigint comes back as a string.
      return Number(row!.since);
    });
  }

  /**
   * Whether this signed-in request's session logged in before the login's latest password change: a change recorded
   * after the moment the session is known to have signed in by.
   */
  async signedInBeforeChange(req: SessionRequest): Promise<boolean> {
    const login = (req.sasl_username ?? "").toLowerCase();
    if (!login) return false;
    const since = await this.signedInBy(req);
    const rows = await dialectOf(this.db).all<{ one: number }>(
      this.db,
      sql`SELECT 1 AS one FROM mail_password_changes WHERE email = ${login} AND changed_at > ${since} LIMIT 1`,
    );
    return rows.length > 0;
  }
}
