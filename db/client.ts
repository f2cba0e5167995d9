// The one database connection of a process: opened on first use, tuned, migrated, then cached on globalThis
// (Next's dev server reloads modules; a second connection per reload would leak file handles).
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { databasePath, databaseSetting } from "../lib/config.mjs";
import { runMigrations } from "./migrate";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

interface Cached {
  /** The database settings when the connection was opened (resolving the path on every call costs more than a lookup). */
  setting: string;
  db: Db;
}
const globalForDb = globalThis as unknown as { __mailDb?: Cached };

export { databasePath };

/** Opens (and creates, and migrates) the SQLite file at `file`. */
export function openDatabase(file: string): Db {
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
  const db: Db = drizzle(sqlite, { schema });
  runMigrations(db);
  return db;
}

/** The process-wide connection for DATABASE_PATH. */
export function getDb(): Db {
  const cached = globalForDb.__mailDb;
  const setting = databaseSetting();
  if (cached && cached.setting === setting) return cached.db;
  const db = openDatabase(databasePath());
  globalForDb.__mailDb = { setting, db };
  return db;
}
