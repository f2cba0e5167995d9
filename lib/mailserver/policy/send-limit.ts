// The per-account sending limit (docs/mail-server.md, "Sending limit"): each recipient a signed-in sender (SASL
// login) is accepted for is counted in the database's send_counts, one row per login and minute, so that every mail
// host sharing the database spends one budget and a restart forgets nothing. The budget is the login's domain's
// send_limit over a rolling hour: the current minute and the 59 before it.
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import { accounts } from "@/db/schema";
import { forUpdate, withTransaction } from "@/db/transaction";

/** Minutes in the rolling window. */
export const WINDOW_MINUTES = 60;

export type SendDecision = { allowed: true } | { allowed: false; limit: number };

export class SendLimit {
  /** The window's first minute when this service last deleted what had left it. */
  private prunedFrom = -Infinity;

  constructor(private readonly db: Db) {}

  /**
   * Counts one recipient for `login` at `nowMs` when its domain's limit allows it: one statement that reads the
   * limit, sums the window's earlier minutes and adds 1 to the current minute's row only while the sum stays under
   * the limit. A refused recipient is not counted, so a client retrying its queue does not push the window on.
   *
   * Two hosts counting one login at once on PostgreSQL: the login's account row is locked first, so the counts of one
   * login go one after the other and each reads every count committed before it, also one still in flight in the
   * minute before (two different rows, which ON CONFLICT alone did not order: both passed). On SQLite, writes are
   * serial.
   */
  async count(login: string, nowMs: number): Promise<SendDecision> {
    const minute = Math.floor(nowMs / 60_000);
    const first = minute - WINDOW_MINUTES + 1;
    const limit = sql`(SELECT d.send_limit FROM accounts a JOIN domains d ON d.id = a.domain_id WHERE a.email = ${login})`;
    const earlier = sql`(SELECT coalesce(sum(e.recipients), 0) FROM send_counts e
      WHERE e.login = ${login} AND e.minute >= ${first} AND e.minute < ${minute})`;
    // Every write through withTransaction: on SQLite one on the shared connection while the process's write
    // connection holds the lock (greylisting kept in the database) blocked the event loop and failed after 5 s.
    return withTransaction(this.db, async (tx) => {
      // At most once a minute, so that at every count the table holds the last hour only, a quiet host's too.
      if (first > this.prunedFrom) {
        this.prunedFrom = first;
        await this.prune(tx, first);
      }
      await forUpdate(tx, tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, login)));
      const rows = await dialectOf(tx).all<{ recipients: number }>(
        tx,
        sql`INSERT INTO send_counts (login, minute, recipients)
          SELECT CAST(${login} AS TEXT), CAST(${minute} AS INTEGER), 1
          WHERE coalesce(${limit}, 0) = 0 OR ${earlier} < ${limit}
          ON CONFLICT (login, minute) DO UPDATE SET recipients = send_counts.recipients + 1
          WHERE coalesce(${limit}, 0) = 0 OR send_counts.recipients + ${earlier} < ${limit}
          RETURNING recipients`,
      );
      if (rows.length) return { allowed: true };
      const [row] = await dialectOf(tx).all<{ limit: number }>(tx, sql`SELECT ${limit} AS "limit"`);
      return { allowed: false, limit: Number(row?.limit ?? 0) };
    });
  }

  /** Deletes the minutes before `first` (through the index on minute, so only the rows it deletes are read). */
  private async prune(tx: Db, first: number): Promise<void> {
    await dialectOf(tx).run(tx, sql`DELETE FROM send_counts WHERE minute < ${first}`);
  }
}
