// Opening a SQLite connection to the service's file, tuned the same way for the shared and the write connection
// (and for the server's primary, which migrates it: db/migrate.mjs holds the settings).
import type Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { openSqliteFile } from "../migrate.mjs";
import * as schema from "./schema";

export type SqliteDb = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export function openSqlite(file: string): SqliteDb {
  return drizzle(openSqliteFile(file), { schema });
}
