// Greylisting state of the policy service: when each (client address, sender, recipient) was first seen and
// whether it has passed. Two stores with one rule: a small SQLite file of the MX host (the default on SQLite, one
// host), or the `greylist` table of the shared database (the default on PostgreSQL), so that a sender's retry
// through another MX finds its first attempt (docs/mail-hosts.md).
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { and, eq, lt, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { greylist as greylistTable } from "@/db/schema";
import { withTransaction } from "@/db/transaction";

/**
 * Triplets that passed are kept this long after their last message; others are forgotten a day after their first
 * attempt, which is their last_seen too (only a pass moves it): both are read through the index on (passed,
 * last_seen), so the expiry reads only the rows it deletes.
 */
const PASSED_TTL_S = 35 * 86_400;
const PENDING_TTL_S = 86_400;

/** Where the policy service keeps the triplets. */
export interface GreylistStore {
  /** Seconds the triplet must still wait (0: accept). */
  check(client: string, sender: string, recipient: string, delayS: number, nowMs?: number): number | Promise<number>;
  close(): void;
}

/** What a triplet's row says now: the first attempt starts the wait, a retry after `delayS` passes. */
function waitLeft(row: { firstSeen: number; passed: number }, delayS: number, nowMs: number): number {
  const waited = nowMs / 1000 - row.firstSeen;
  return !row.passed && waited < delayS ? Math.max(1, Math.ceil(delayS - waited)) : 0;
}

export class Greylist implements GreylistStore {
  private readonly db: Database.Database;
  private checks = 0;

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(`CREATE TABLE IF NOT EXISTS greylist (
      client TEXT NOT NULL, sender TEXT NOT NULL, recipient TEXT NOT NULL,
      first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, passed INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (client, sender, recipient))`);
    this.db.exec("CREATE INDEX IF NOT EXISTS greylist_expiry ON greylist (passed, last_seen)");
  }

  /**
   * Seconds the triplet must still wait (0: accept). The first attempt starts the wait; a retry after
   * `delayS` passes, and later messages of the same triplet pass at once.
   */
  check(client: string, sender: string, recipient: string, delayS: number, nowMs = Date.now()): number {
    const now = Math.floor(nowMs / 1000);
    if (++this.checks % 1000 === 1) this.expire(now);
    const row = this.db
      .prepare("SELECT first_seen, passed FROM greylist WHERE client = ? AND sender = ? AND recipient = ?")
      .get(client, sender, recipient) as { first_seen: number; passed: number } | undefined;
    if (!row) {
      this.db
        .prepare("INSERT INTO greylist (client, sender, recipient, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)")
        .run(client, sender, recipient, now, now);
      return Math.max(1, delayS);
    }
    const wait = waitLeft({ firstSeen: row.first_seen, passed: row.passed }, delayS, nowMs);
    if (wait > 0) return wait;
    this.db
      .prepare("UPDATE greylist SET passed = 1, last_seen = ? WHERE client = ? AND sender = ? AND recipient = ?")
      .run(now, client, sender, recipient);
    return 0;
  }

  private expire(now: number) {
    this.db
      .prepare("DELETE FROM greylist WHERE (passed = 1 AND last_seen < ?) OR (passed = 0 AND last_seen < ?)")
      .run(now - PASSED_TTL_S, now - PENDING_TTL_S);
  }

  close() {
    this.db.close();
  }
}

/** The triplets in the service's database (table greylist), shared by every MX that uses the same database. */
export class DatabaseGreylist implements GreylistStore {
  private checks = 0;

  constructor(private readonly db: Db) {}

  async check(client: string, sender: string, recipient: string, delayS: number, nowMs = Date.now()): Promise<number> {
    const now = Math.floor(nowMs / 1000);
    const t = greylistTable;
    if (++this.checks % 1000 === 1) {
      await withTransaction(this.db, (tx) =>
        tx
          .delete(t)
          .where(
            or(
              and(eq(t.passed, 1), lt(t.lastSeen, now - PASSED_TTL_S)),
              and(eq(t.passed, 0), lt(t.lastSeen, now - PENDING_TTL_S)),
            ),
          ),
      );
    }
    const key = and(eq(t.client, client), eq(t.sender, sender), eq(t.recipient, recipient));
    return withTransaction(this.db, async (tx) => {
      // Two MX hosts may see the same new triplet at once: the insert that loses reads the winner's row.
      const inserted = await tx
        .insert(t)
        .values({ client, sender, recipient, firstSeen: now, lastSeen: now })
        .onConflictDoNothing()
        .returning({ firstSeen: t.firstSeen });
      if (inserted.length) return Math.max(1, delayS);
      const [row] = await tx.select({ firstSeen: t.firstSeen, passed: t.passed }).from(t).where(key);
      if (!row) return Math.max(1, delayS);
      const wait = waitLeft(row, delayS, nowMs);
      if (wait > 0) return wait;
      await tx.update(t).set({ passed: 1, lastSeen: now }).where(key);
      return 0;
    });
  }

  close() {}
}

/**
 * The store `mailserver policy` uses: `--state database` the shared table, `--state <file>` a file of this host;
 * without it the database on PostgreSQL (every MX agrees) and on SQLite greylist.db beside the database file, which
 * must exist (a service started without its database does not leave a stray state file behind).
 */
export function openGreylist(
  db: () => Db,
  state: string | undefined,
  o: { postgres: boolean; databasePath: string },
): GreylistStore {
  if (state === "database" || (state === undefined && o.postgres)) return new DatabaseGreylist(db());
  if (state !== undefined) return new Greylist(state);
  if (!fs.existsSync(o.databasePath)) {
    throw new Error(
      `greylisting's state: the database ${o.databasePath} does not exist (set DATABASE_PATH, or give --state <file> or --state database)`,
    );
  }
  return new Greylist(path.join(path.dirname(o.databasePath), "greylist.db"));
}
