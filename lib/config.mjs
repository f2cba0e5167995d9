// The one module that reads where things are: the database (DATABASE_URL or DATABASE_PATH), the migrations folder,
// and the address the server listens on (PORT, HOST, WORKERS). The server (lib/runtime/server.mjs, run by plain
// node), the TypeScript services and CLI, and drizzle.config.ts all import it, so the rules cannot drift apart.
// Plain JavaScript for that reason; its types are in config.d.mts. The service's own tunables (limits, throttling,
// anti-spam defaults) are validated in lib/server/env.ts.
import path from "node:path";

/** The embedded SQLite file used when DATABASE_URL is not set (relative paths resolve against the working folder). */
export const DEFAULT_DATABASE_PATH = "data/mail.db";

/** DATABASE_URL as set, or undefined (empty counts as unset). */
export function databaseUrl() {
  const url = process.env.DATABASE_URL;
  return url === undefined || url === "" ? undefined : url;
}

/** Which engine holds the data: PostgreSQL when DATABASE_URL names one, otherwise the embedded SQLite file. */
export function databaseEngine() {
  const url = databaseUrl();
  if (url === undefined) return "sqlite";
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgres";
  throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL (unset: the SQLite file DATABASE_PATH)`);
}

/** The SQLite file: DATABASE_PATH, or data/mail.db, as an absolute path. */
export function databasePath() {
  return path.resolve(/*turbopackIgnore: true*/ process.env.DATABASE_PATH ?? DEFAULT_DATABASE_PATH);
}

/** What a cached connection was opened for: it is reopened when this changes (tests switch databases). */
export function databaseSetting() {
  return `${process.env.DATABASE_URL ?? ""}\n${process.env.DATABASE_PATH ?? ""}`;
}

/** The committed drizzle-kit migrations of SQLite: MIGRATIONS_PATH, or db/sqlite/migrations under the working folder. */
export function migrationsFolder() {
  return process.env.MIGRATIONS_PATH ?? path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "sqlite", "migrations");
}

/** The committed drizzle-kit migrations of PostgreSQL: PG_MIGRATIONS_PATH, or db/pg/migrations under the working folder. */
export function pgMigrationsFolder() {
  return process.env.PG_MIGRATIONS_PATH ?? path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "pg", "migrations");
}

/** The port `npm start` listens on (PORT, default 3000). */
export function serverPort() {
  return Number(process.env.PORT ?? 3000);
}

/** The address `npm start` listens on (HOST, default all IPv4 addresses). */
export function serverHost() {
  return process.env.HOST ?? "0.0.0.0";
}

/** WORKERS as set (undefined: one worker per CPU core). */
export function workersSetting() {
  const setting = process.env.WORKERS;
  return setting === undefined || setting === "" ? undefined : setting;
}
