// A submission session that signed in before its account's password changed sends no more (docs/mail-server.md,
// "Open sessions"). Postfix checks the password only at AUTH and tells the policy service nothing about when that
// was, so the service remembers, per session, the earliest moment it knows the session was already signed in: the
// start of the first transaction it was asked about (Postfix's `instance` attribute carries the MAIL FROM time, and
// AUTH is refused inside a transaction, so the login came before it). A password change recorded after that moment
// (mail_password_changes, written by the trigger on accounts.mail_password_hash, kept a day) means the session
// logged in with the old password: its RCPTs and its end of DATA are refused. A change recorded before it says
// nothing (the session may have logged in with the new password), so the session goes on.
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
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

/** Sessions remembered at most; past it the least recently asked about are forgotten first. */
export const MAX_REMEMBERED_SESSIONS = 100_000;

interface Session {
  /** Epoch ms by which the session had signed in: the earliest transaction start seen. */
  since: number;
  /** The transaction last asked about, and its number in the session (-1 when `instance` did not parse). */
  instance: string;
  seqno: number;
  /** When the service was last asked about it (for forgetting). */
  seen: number;
}

/** The parts of `instance`: smtpd's pid, the transaction's MAIL FROM time (epoch ms) and its number in the session. */
export function parseInstance(instance: string): { pid: string; mailAt: number; seqno: number } | undefined {
  const m = /^([0-9a-f]+)\.([0-9a-f]+)\.([0-9a-f]+)\.([0-9a-f]+)$/i.exec(instance);
  if (!m) return undefined;
  const mailAt = parseInt(m[2]!, 16) * 1000 + Math.floor(parseInt(m[3]!, 16) / 1000);
  return { pid: m[1]!.toLowerCase(), mailAt, seqno: parseInt(m[4]!, 16) };
}

export class SignedInSessions {
  private readonly sessions = new Map<string, Session>();
  private forgotAt = 0;

  constructor(
    private readonly db: Db,
    /** The real clock: changes are stamped by the database's, which NTP keeps in step with the mail hosts'. */
    private readonly now: () => number = Date.now,
  ) {}

  /** How many sessions are remembered (for tests). */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * The epoch ms by which this request's session had signed in, remembered for its later requests. A session is its
   * login, both ends of the connection and smtpd's pid; a new connection that reuses all of them (the same client port
   * again, on the same smtpd process) starts again at transaction 0 with another instance, and is a new session.
   */
  signedInBy(req: SessionRequest): number {
    const now = this.now();
    this.forget(now);
    const parsed = parseInstance(req.instance ?? "");
    const key = [
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
    const known = this.sessions.get(key);
    const same =
      known !== undefined && (seqno < 0 || known.seqno < 0 || known.instance === req.instance || seqno > known.seqno);
    const since = same ? Math.min(known.since, started) : started;
    // Deleted and set again, so that the Map's order is the order of the last question (oldest forgotten first).
    this.sessions.delete(key);
    this.sessions.set(key, { since, instance: req.instance ?? "", seqno, seen: now });
    if (this.sessions.size > MAX_REMEMBERED_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    return since;
  }

  /**
   * Whether this signed-in request's session logged in before the login's latest password change: a change recorded
   * after the moment the session is known to have signed in by.
   */
  async signedInBeforeChange(req: SessionRequest): Promise<boolean> {
    const login = (req.sasl_username ?? "").toLowerCase();
    if (!login) return false;
    const since = this.signedInBy(req);
    const rows = await dialectOf(this.db).all<{ one: number }>(
      this.db,
      sql`SELECT 1 AS one FROM mail_password_changes WHERE email = ${login} AND changed_at > ${since} LIMIT 1`,
    );
    return rows.length > 0;
  }

  /** Forgets, once a minute, the sessions not asked about for as long as a change is kept. */
  private forget(now: number) {
    if (now - this.forgotAt < 60_000) return;
    this.forgotAt = now;
    for (const [key, s] of this.sessions) {
      // In the order of the last question: the first one asked about recently enough ends the pass.
      if (s.seen >= now - PASSWORD_CHANGE_KEEP_MS) break;
      this.sessions.delete(key);
    }
  }
}
