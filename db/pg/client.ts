// The PostgreSQL connection of a process: one node-postgres Pool, migrated on open, wrapped by drizzle
// with db/pg/schema.ts. DATABASE_URL=postgres://... selects this engine (the configuration module decides; this
// file only opens what it is given).
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { nodePgConnectionString, pgMigrationsFolder } from "../../lib/config.mjs";
import { runPgMigrations } from "../migrate.mjs";
import * as schema from "./schema";

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

// better-sqlite3 returns every integer as a JS number; node-postgres returns int8 (bigint columns, count(*)) and
// numeric (sum of a bigint) as strings. Parsed as numbers here so raw queries see the same values on both engines
// (every value we keep is far below 2^53). Process-wide: pg's parsers are global.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export { pgMigrationsFolder, runPgMigrations };

export interface OpenPostgresOptions {
  /** Default 10 connections per process (node-postgres's default). */
  max?: number;
  /** Skip migrating (a read-only role, a replica). */
  migrate?: boolean;
  migrationsFolder?: string;
}

/** Opens a pool on `url` (postgres://user:password@host:port/db), migrates it, and returns the drizzle instance. */
export async function openPostgres(url: string, options: OpenPostgresOptions = {}): Promise<PgDb> {
  const pool = new pg.Pool({ connectionString: nodePgConnectionString(url), max: options.max ?? 10 });
  // An idle client that loses its server (a restart, a failover) emits 'error' on the pool; without a listener
  // that would end the process. The next query takes a fresh connection.
  pool.on("error", () => {});
  try {
    if (options.migrate !== false) await runPgMigrations(pool, options.migrationsFolder);
  } catch (e) {
    await pool.end();
    throw e;
  }
  return drizzle({ client: pool, schema });
}

/** True for a postgres:// or postgresql:// URL. */
export const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//i.test(url);

/**
 * The process's pool on `url`, at once (synchronously, for getDb()), with a promise that settles when the database
 * is migrated (the server's primary migrates before the workers start; the CLI waits for it).
 */
export function openPostgresPool(
  url: string,
  options: OpenPostgresOptions = {},
): { db: PgDb; migrated: Promise<void> } {
  const pool = new pg.Pool({ connectionString: nodePgConnectionString(url), max: options.max ?? 10 });
  pool.on("error", () => {});
  const migrated =
    options.migrate === false ? Promise.resolve() : runPgMigrations(pool, options.migrationsFolder).then(() => {});
  // Awaited by getReadyDb(); a failure there is reported where it is awaited.
  migrated.catch(() => {});
  return { db: drizzle({ client: pool, schema }), migrated };
}
