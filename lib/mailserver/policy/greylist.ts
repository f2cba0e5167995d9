// Greylisting state of the policy service: when each (client address, sender, recipient) was first seen and
// whether it has passed. Its own small SQLite file (not the panel's database: it is written on every new
// triplet and belongs to the mail server, not to the records the API serves).
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** Triplets that passed are kept this long after their last message; others are forgotten after a day. */
const PASSED_TTL_S = 35 * 86_400;
const PENDING_TTL_S = 86_400;

export class Greylist {
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
    const waited = nowMs / 1000 - row.first_seen;
    if (!row.passed && waited < delayS) return Math.max(1, Math.ceil(delayS - waited));
    this.db
      .prepare("UPDATE greylist SET passed = 1, last_seen = ? WHERE client = ? AND sender = ? AND recipient = ?")
      .run(now, client, sender, recipient);
    return 0;
  }

  private expire(now: number) {
    this.db
      .prepare("DELETE FROM greylist WHERE (passed = 1 AND last_seen < ?) OR (passed = 0 AND first_seen < ?)")
      .run(now - PASSED_TTL_S, now - PENDING_TTL_S);
  }

  close() {
    this.db.close();
  }
}
