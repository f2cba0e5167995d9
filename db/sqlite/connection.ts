// Opening a SQLite connection to the service's file, tuned the same way for the shared and the write connection.
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import * as schema from "./schema";

export type SqliteDb = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export function openSqlite(file: string): SqliteDb {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  // WAL lets readers (and the mail server's lookups) run beside one writer; the busy timeout makes a writer
  // wait for another instead of failing at once.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  // 16 MB of page cache instead of SQLite's 2 MB: a searched list page walks a few hundred rows scattered over the
  // table, and with 2 MB paging through one search re-read them from the OS on every request (bench: search "ann"
  // on 100,000 accounts 2.7 -> 0.7 ms per page, in-process). Adds at most 16 MB to the server's memory.
  sqlite.pragma("cache_size = -16384");
  return drizzle(sqlite, { schema });
}
