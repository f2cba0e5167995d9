// Applies the committed drizzle-kit migrations in db/migrations.
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import path from "node:path";
import type { Db } from "./client";

export function migrationsFolder(): string {
  return process.env.MIGRATIONS_PATH ?? path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "migrations");
}

export function runMigrations(db: Db): void {
  migrate(db, { migrationsFolder: migrationsFolder() });
}
