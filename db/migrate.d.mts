// Types of db/migrate.mjs (plain JavaScript so that lib/runtime/server.mjs can import it without TypeScript).
import type Database from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type pg from "pg";

export declare function openSqliteFile(file: string): Database.Database;
export declare function runSqliteMigrations(
  db: BetterSQLite3Database<Record<string, unknown>>,
  folder?: string,
): number;
export declare function runPgMigrations(pool: pg.Pool, folder?: string): Promise<number | null>;
export declare function migrateDatabase(options?: { refuseStandby?: boolean }): Promise<string>;
