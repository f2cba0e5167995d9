// The database of a process: opened on first use, migrated, then cached on globalThis (Next's dev server reloads
// modules; a second connection per reload would leak file handles).
import { databasePath, databaseSetting } from "../lib/config.mjs";
import { setDialect } from "./dialect";
import { runMigrations } from "./migrate";
import { openSqlite, type SqliteDb } from "./sqlite/connection";
import { sqliteDialect } from "./sqlite/dialect";

/**
 * The handle every service receives. Typed as the SQLite drizzle instance; services use only what both engines
 * share (the query builder awaited, `.returning()`, `.prepare()` through lib/server/store/prepared.ts, raw SQL
 * through db/dialect.ts) — docs/architecture.md.
 */
export type Db = SqliteDb;

interface Cached {
  /** The database settings when the connection was opened (resolving the path on every call costs more than a lookup). */
  setting: string;
  db: Db;
}
const globalForDb = globalThis as unknown as { __mailDb?: Cached };

export { databasePath };

/** Opens (and creates, and migrates) the SQLite file at `file`. */
export function openDatabase(file: string): Db {
  const db = setDialect(openSqlite(file), sqliteDialect);
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
