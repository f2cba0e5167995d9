import "server-only";
// The record of mail password changes as each mail host's session check reads it: the rows the trigger on
// accounts.mail_password_hash writes (mail_password_changes), which of them this host has handled, and their pruning
// (docs/mail-server.md, "Open sessions"). In the database, so every host and every restart sees the same record.
import { and, asc, eq, inArray, lt, notExists, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mailPasswordChanges as changes, mailPasswordChangesHandled as handled } from "@/db/schema";
import { changedRows, withTransaction } from "@/db/transaction";

/** A change is kept this long: a host whose events service is stopped longer misses it (its sessions go on). */
export const PASSWORD_CHANGE_KEEP_MS = 86_400_000;

/** How many rows one insert marks: SQLite takes at most 32,766 bound values per statement. */
const MARK_CHUNK = 1_000;

export interface PasswordChange {
  id: number;
  email: string;
  /** Epoch milliseconds, the database's clock. */
  changedAt: number;
}

/**
 * The changes `host` (MAIL_HOST_NAME, '' without one) has not handled yet, oldest first. Marks, not a cursor: on
 * PostgreSQL a transaction may commit a lower id after a higher one was read, and a cursor would pass over it.
 */
export async function unhandledPasswordChanges(db: Db, host: string): Promise<PasswordChange[]> {
  return db
    .select({ id: changes.id, email: changes.email, changedAt: changes.changedAt })
    .from(changes)
    .where(
      notExists(
        db
          .select({ one: sql`1` })
          .from(handled)
          .where(and(eq(handled.changeId, changes.id), eq(handled.host, host))),
      ),
    )
    .orderBy(asc(changes.id));
}

/**
 * Records that `host` has ended the sessions of these changes (a change pruned meanwhile is skipped). Through
 * withTransaction, as every write of the events service: on SQLite a write on the shared connection while another of
 * its writes holds the lock blocked the event loop and failed after the busy timeout.
 */
export async function markPasswordChangesHandled(db: Db, host: string, ids: number[]): Promise<void> {
  await withTransaction(db, async (tx) => {
    for (let i = 0; i < ids.length; i += MARK_CHUNK) {
      const chunk = ids.slice(i, i + MARK_CHUNK);
      // Only ids still present: the foreign key would refuse one pruned by another host since it was read.
      await tx
        .insert(handled)
        .select(
          tx
            .select({ changeId: changes.id, host: sql<string>`${host}`.as("host") })
            .from(changes)
            .where(inArray(changes.id, chunk)),
        )
        .onConflictDoNothing();
    }
  });
}

/** Deletes the changes older than PASSWORD_CHANGE_KEEP_MS (their marks go with them); returns how many. */
export async function prunePasswordChanges(db: Db, now = Date.now()): Promise<number> {
  return withTransaction(db, async (tx) =>
    changedRows(tx, await tx.delete(changes).where(lt(changes.changedAt, now - PASSWORD_CHANGE_KEEP_MS))),
  );
}
