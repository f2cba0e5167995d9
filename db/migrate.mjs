// The one migration runner: the committed drizzle-kit migrations of either engine, applied by the server's primary
// before its workers start (lib/runtime/server.mjs, plain node), by `npm run db:migrate`, and by every process that
// opens the database (db/client.ts). Plain JavaScript for the server's sake; types in migrate.d.mts.
import Database from "better-sqlite3";
import { drizzle as sqliteDrizzle } from "drizzle-orm/better-sqlite3";
import { migrate as sqliteMigrate } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as pgDrizzle } from "drizzle-orm/node-postgres";
import { migrate as pgMigrate } from "drizzle-orm/node-postgres/migrator";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import {
  databaseEngine,
  databasePath,
  databaseUrl,
  migrationsFolder,
  nodePgConnectionString,
  pgMigrationsFolder,
} from "../lib/config.mjs";

/** Any fixed number: the key of the advisory lock that serialises migrations across processes and hosts. */
const MIGRATION_LOCK_KEY = 3_400_034;

/**
 * Opens (and creates) a SQLite file, tuned the same way for every connection to it. WAL lets readers (and the mail
 * server's lookups) run beside one writer; the busy timeout makes a writer wait for another instead of failing at
 * once; 16 MB of page cache instead of SQLite's 2 MB keeps a searched list page's scattered rows in memory.
 */
export function openSqliteFile(file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("cache_size = -16384");
  return sqlite;
}

/** The release with the step-by-step migrations that lead up to the baseline. */
const PRE_BASELINE_RELEASE = "release 0.1.0 (commit dda88ef)";

/**
 * Each engine's migrations start from one baseline (the journal's first entry) that creates the whole schema, dated
 * like the newest step-by-step migration it replaced. drizzle applies every migration newer than a database's newest,
 * so a database migrated by an older release would get the baseline on top of its tables: refuse it, before anything
 * is changed. `newest`: the newest created_at in the migrations table (null when there is none: a fresh database).
 */
function refuseBeforeBaseline(newest, folder) {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8"));
  const baseline = journal.entries[0]?.when;
  if (newest === null || newest === undefined || baseline === undefined || Number(newest) >= baseline) return;
  throw new Error(
    `This database was migrated by a release older than the schema baseline of release 0.2.0; the migration changed ` +
      `nothing. Migrate it first with ${PRE_BASELINE_RELEASE}, which still has the step-by-step migrations ` +
      `(\`npm run db:migrate\` in its checkout), then with this release (docs/deploy.md, "Upgrading").`,
  );
}

/** Applies db/sqlite/migrations (or MIGRATIONS_PATH) to any drizzle SQLite instance; returns how many it applied. */
export function runSqliteMigrations(db, folder = migrationsFolder()) {
  const sqlite = db.$client;
  const present = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = '__drizzle_migrations'").get();
  const applied = () =>
    sqlite.prepare("SELECT count(*) AS n, max(created_at) AS newest FROM __drizzle_migrations").get();
  const before = present ? applied() : { n: 0, newest: null };
  refuseBeforeBaseline(before.newest, folder);
  sqliteMigrate(db, { migrationsFolder: folder });
  return applied().n - before.n;
}

/**
 * Applies db/pg/migrations, holding an advisory lock so processes starting at once migrate one after another; returns
 * how many it applied (null on a standby).
 */
export async function runPgMigrations(pool, folder = pgMigrationsFolder()) {
  const client = await pool.connect();
  try {
    // A standby replays the primary's schema and refuses writes: there is nothing to migrate (and nothing could be).
    const { rows } = await client.query("SELECT pg_is_in_recovery() AS standby");
    if (rows[0]?.standby) return null;
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      const table = await client.query("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present");
      const applied = async () =>
        (await client.query("SELECT count(*)::int AS n, max(created_at) AS newest FROM drizzle.__drizzle_migrations"))
          .rows[0];
      const before = table.rows[0].present ? await applied() : { n: 0, newest: null };
      refuseBeforeBaseline(before.newest, folder);
      // On the connection that holds the lock: a second one from the pool would never come with DATABASE_POOL_MAX=1.
      await pgMigrate(pgDrizzle({ client }), { migrationsFolder: folder });
      return (await applied()).n - before.n;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/**
 * Migrates the configured database (DATABASE_URL, else the SQLite file) and closes it; returns the line that says
 * which database it was and how many migrations were applied (`npm run db:migrate` and the CLI's `db migrate`).
 * A standby is left alone; with `refuseStandby` that is an error, so that a script sees the database was not migrated.
 */
export async function migrateDatabase({ refuseStandby = false } = {}) {
  let target;
  let applied;
  if (databaseEngine() === "postgres") {
    // nodePgConnectionString first: it says how to write a password with URL characters, where new URL() says only
    // "Invalid URL" (`db migrate`, `npm run db:migrate` and `npm start` all come here).
    const connectionString = nodePgConnectionString(databaseUrl());
    const u = new URL(connectionString);
    target = `${u.host}${u.pathname}`;
    const pool = new pg.Pool({ connectionString, max: 2 });
    try {
      // Named as the CLI names a database it cannot open for its other commands (`db migrate` opens its own).
      await pool.query("SELECT 1").catch((err) => {
        throw new Error(`the database at ${target} (DATABASE_URL) could not be opened: ${err.message}`, { cause: err });
      });
      applied = await runPgMigrations(pool);
    } finally {
      await pool.end();
    }
  } else {
    target = databasePath();
    const sqlite = openSqliteFile(target);
    try {
      applied = runSqliteMigrations(sqliteDrizzle(sqlite));
    } finally {
      sqlite.close();
    }
  }
  if (applied === null) {
    const line = `Database not migrated: ${target} is a standby (migrate its primary)`;
    if (refuseStandby) throw new Error(line);
    return line;
  }
  const what = applied === 0 ? "already up to date" : `${applied} migration${applied === 1 ? "" : "s"} applied`;
  return `Database migrated: ${target} (${what})`;
}
