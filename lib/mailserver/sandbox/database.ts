// The sandbox's database: the SQLite file at DATABASE_PATH, or PostgreSQL at DATABASE_URL. On
// PostgreSQL the generated configuration is the production one of docs/postgresql.md: Postfix's proxy:pgsql: maps
// and Dovecot's pgsql driver connect as the read-only mail role (created or updated here), while the in-process
// services (policy, list service, mail events) use the application's own connection, as `mailserver policy`,
// `lists serve` and `mailserver events` do with DATABASE_URL.
import fs from "node:fs";
import pg from "pg";
import { openDatabase, type Db } from "@/db/client";
import { setDialect } from "@/db/dialect";
import { openPostgres } from "@/db/pg/client";
import { pgDialect } from "@/db/pg/dialect";
import { ensureMailReader, mailReaderSql } from "@/db/pg/mail-reader";
import { databaseEngine, nodePgConnectionString } from "@/lib/config.mjs";
import { DEFAULT_MAIL_READER, pgsqlMapOptionsFromUrl, type PgsqlMapOptions } from "../config-database";
import { shellWord } from "../shell-word";

export interface SandboxPostgres {
  /** The application's connection (the database's owner): DATABASE_URL. */
  url: string;
  /** The mail role's password (MAIL_DB_PASSWORD); the role is created, or its password set, at start. */
  readerPassword: string;
  /**
   * Runs SQL as a superuser (a private cluster's psql): how the role is created when the owner may not create
   * roles. Without it the owner runs the SQL itself (it needs CREATEROLE), else the role must already exist
   * with this password (`mailserver db-role --print`, run as postgres).
   */
  superuserSql?: (sql: string) => void;
  /**
   * Where Postfix's maps and Dovecot read, and where quota_clone writes (`mailserver config --read-hosts` and
   * `--write-host`); DATABASE_URL's server when unset. A second mail host reading its local replica sets them.
   */
  readHosts?: string[];
  writeHost?: string;
}

export interface SandboxDatabase {
  db: Db;
  close: () => Promise<void>;
}

/** A connection of one in-process service: the SQLite file, or a small pool on DATABASE_URL. */
export async function openSandboxDb(
  databasePath: string,
  postgres: SandboxPostgres | undefined,
): Promise<SandboxDatabase> {
  if (!postgres) {
    const db = openDatabase(databasePath);
    return {
      db,
      close: () => {
        db.$client.close();
        return Promise.resolve();
      },
    };
  }
  // The services' tables (db/schema.ts) are the engine's that DATABASE_URL named when the process started.
  if (databaseEngine() !== "postgres")
    throw new Error("the sandbox on PostgreSQL needs DATABASE_URL=postgres://... set when the process starts");
  const pool = await openPostgres(postgres.url, { max: 4 });
  return { db: setDialect(pool, pgDialect) as unknown as Db, close: () => pool.$client.end() };
}

/** The maps' and Dovecot's connection settings: the lookups and the quota write-back, by default on DATABASE_URL's server. */
export const sandboxPgsqlOptions = (postgres: SandboxPostgres): PgsqlMapOptions =>
  pgsqlMapOptionsFromUrl(postgres.url, {
    password: postgres.readerPassword,
    readHosts: postgres.readHosts,
    writeHost: postgres.writeHost,
  });

/** Migrates the database and creates (or updates) the mail role with its grants on the mail_* views. */
export async function prepareMailReader(postgres: SandboxPostgres): Promise<void> {
  // Two connections: the migrator holds one for its advisory lock and migrates on another.
  const pool = await openPostgres(postgres.url, { max: 2 });
  try {
    const database = (await pool.$client.query<{ db: string }>("SELECT current_database() AS db")).rows[0]!.db;
    if (postgres.superuserSql)
      return postgres.superuserSql(mailReaderSql(DEFAULT_MAIL_READER, postgres.readerPassword, database));
    try {
      await ensureMailReader(pool.$client, DEFAULT_MAIL_READER, postgres.readerPassword);
      return;
    } catch {
      // No CREATEROLE: the role must exist already, with this password (checked below).
    }
    const o = sandboxPgsqlOptions(postgres);
    const failure = await readerFailure(readerUrl(postgres.url, o));
    if (!failure) return;
    const exists = (await pool.$client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [o.user])).rowCount !== 0;
    throw new Error(mailReaderHint(o.user, database, exists, failure));
  } finally {
    await pool.$client.end();
  }
}

/** Why the mail role cannot read the views at `url` (its own login), or undefined when it can. */
async function readerFailure(url: string): Promise<{ message: string; code?: string } | undefined> {
  const client = new pg.Client({ connectionString: nodePgConnectionString(url) });
  try {
    await client.connect();
    await client.query("SELECT 1 FROM mail_mailboxes LIMIT 1");
    return undefined;
  } catch (err) {
    return { message: (err as Error).message, code: (err as { code?: string }).code };
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * What to do when the owner (no CREATEROLE) could not create or update the mail role and the role cannot read the
 * views. Creating it is the advice only when pg_roles has no such role: the pipe that creates it also sets the
 * password of one that exists, and every mail host's maps, which hold the old one, would stop resolving.
 */
export function mailReaderHint(
  role: string,
  database: string,
  exists: boolean,
  failure: { message: string; code?: string },
): string {
  const pipe = `mailserver db-role --print | runuser -u postgres -- psql -d ${shellWord(database)}`;
  if (!exists)
    return (
      `the mail role ${role} does not exist, and DATABASE_URL's role may not create it (no CREATEROLE): create it as ` +
      `postgres with \`MAIL_DB_PASSWORD=... ${pipe}\` (docs/postgresql.md)`
    );
  // 28P01: the role exists (pg_roles), so the password is the wrong one.
  if (failure.code === "28P01")
    return (
      `the mail role ${role} exists and does not log in with MAIL_DB_PASSWORD (a random one when unset): ` +
      `${failure.message}; set MAIL_DB_PASSWORD to the password the mail hosts already use (their maps hold it). ` +
      `DATABASE_URL's role may not change it (no CREATEROLE), and a new one set as postgres would stop every mail ` +
      `host's maps from resolving (docs/postgresql.md)`
    );
  return (
    `the mail role ${role} cannot read the mail views (${failure.message}): grant them as postgres, its password ` +
    `unchanged, with MAIL_DB_PASSWORD unset: \`${pipe}\` (docs/postgresql.md)`
  );
}

const readerUrl = (url: string, o: PgsqlMapOptions) => {
  const u = new URL(url);
  u.username = encodeURIComponent(o.user);
  u.password = encodeURIComponent(o.password);
  return u.toString();
};

/** The first domain the database hosts (by id), the sandbox's default SRS domain. */
export async function firstHostedDomain(
  databasePath: string,
  postgres: SandboxPostgres | undefined,
): Promise<string | undefined> {
  if (!postgres && !fs.existsSync(databasePath)) return undefined;
  if (postgres) {
    const client = new pg.Client({ connectionString: nodePgConnectionString(postgres.url) });
    try {
      await client.connect();
      return (await client.query<{ domain: string }>("SELECT name AS domain FROM domains ORDER BY id LIMIT 1")).rows[0]
        ?.domain;
    } catch {
      return undefined;
    } finally {
      await client.end().catch(() => {});
    }
  }
  const db = openDatabase(databasePath);
  try {
    const row = db.$client.prepare("SELECT name AS domain FROM domains ORDER BY id LIMIT 1").get() as
      { domain: string } | undefined;
    return row?.domain;
  } catch {
    return undefined;
  } finally {
    db.$client.close();
  }
}

/** A URL without its password, for the sandbox's JSON line. */
export const urlWithoutPassword = (url: string) => {
  const u = new URL(url);
  u.password = "";
  return u.toString();
};
