// Applies the committed drizzle-kit migrations (the folder comes from lib/config.mjs).
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { migrationsFolder } from "../lib/config.mjs";

export { migrationsFolder };

export function runMigrations(db: BetterSQLite3Database<Record<string, unknown>>): void {
  migrate(db, { migrationsFolder: migrationsFolder() });
}
