// The database of a process: opened on first use, then cached on globalThis (Next's dev server reloads modules; a
// second connection per reload would leak file handles). DATABASE_URL=postgres://... selects PostgreSQL (a pg
// Pool per process); without it the SQLite file DATABASE_PATH (lib/config.mjs).
import { databaseEngine, databasePath, databasePoolMax, databaseSetting, databaseUrl } from "../lib/config.mjs";
import { setDialect, type Db } from "./dialect";
import { runSqliteMigrations } from "./migrate.mjs";
import { openPostgresPool } from "./pg/client";
import { pgDialect } from "./pg/dialect";
import { openSqlite } from "./sqlite/connection";
import { sqliteDialect } from "./sqlite/dialect";

/** Services import the handle's type from here, beside `getDb`. */
export type { Db };

interface Cached {
  /** The database settings when the connection was opened (resolving the path on every call costs more than a lookup). */
  setting: string;
  db: Db;
  /** Settles when the database is migrated (PostgreSQL migrates asynchronously). */
  ready: Promise<void>;
}
const globalForDb = globalThis as unknown as { __mailDb?: Cached };

export { databasePath };

/** Opens (and creates, and migrates) the SQLite file at `file`. */
export function openDatabase(file: string): Db {
  const db = setDialect(openSqlite(file), sqliteDialect);
  runSqliteMigrations(db);
  return db;
}

function open(): Cached {
  const setting = databaseSetting();
  if (databaseEngine() === "postgres") {
    const pool = openPostgresPool(databaseUrl()!, { max: databasePoolMax() });
    const db = setDialect(pool.db, pgDialect) as unknown as Db;
    return { setting, db, ready: pool.migrated };
  }
  return { setting, db: openDatabase(databasePath()), ready: Promise.resolve() };
}

/** The process-wide connection (DATABASE_URL, else DATABASE_PATH). */
export function getDb(): Db {
  const cached = globalForDb.__mailDb;
  if (cached && cached.setting === databaseSetting()) return cached.db;
  globalForDb.__mailDb = open();
  return globalForDb.__mailDb.db;
}

/** The process-wide connection once it is migrated (the CLI and scripts wait for this; the server's primary migrates). */
export async function getReadyDb(): Promise<Db> {
  const db = getDb();
  await globalForDb.__mailDb!.ready;
  return db;
}

/** Closes the process-wide connection (scripts that end by themselves: seeding, tests). */
export async function closeDb(): Promise<void> {
  const cached = globalForDb.__mailDb;
  if (!cached) return;
  globalForDb.__mailDb = undefined;
  const client = cached.db.$client as unknown as { close?: () => void; end?: () => Promise<void> };
  await cached.ready.catch(() => {});
  if (typeof client.end === "function") await client.end();
  else client.close?.();
}
