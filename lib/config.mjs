// The one module that reads the environment (process.env). Where things are: the database (DATABASE_URL or
// DATABASE_PATH), the migrations folders, the address the server listens on (PORT, HOST, WORKERS, SERVER_NAMES);
// the settings of the CLI and the mail services. The server (lib/runtime/server.mjs, run by plain node), the
// TypeScript services and CLI, next.config.mjs and drizzle.config.ts all import it, so the rules cannot drift apart.
// Plain JavaScript for that reason; its types are in config.d.mts. The service's own tunables (limits, throttling,
// anti-spam defaults) are validated with zod in lib/server/env.ts, over environment(). Read at each call, not once:
// tests and the sandbox point a running process at another database or resolver.
import os from "node:os";
import path from "node:path";

/** The embedded SQLite file used when DATABASE_URL is not set (relative paths resolve against the working folder). */
export const DEFAULT_DATABASE_PATH = "data/mail.db";

/** DATABASE_URL as set, or undefined (empty counts as unset). */
export function databaseUrl() {
  const url = process.env.DATABASE_URL;
  return url === undefined || url === "" ? undefined : url;
}

/** DATABASE_URL when it names a PostgreSQL database, else undefined (the CLI's PostgreSQL-only commands). */
export function postgresUrl() {
  const url = databaseUrl();
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url) ? url : undefined;
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
  return (
    process.env.MIGRATIONS_PATH ?? path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "sqlite", "migrations")
  );
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

/**
 * SERVER_NAMES: the server's own host names (comma-separated, as nginx's server_name), lowercased; empty when unset
 * (any Host is taken as ours).
 */
export function serverNames() {
  return list(process.env.SERVER_NAMES).map((n) => n.toLowerCase());
}

/** NEXT_DIST_DIR: the folder of Next's build (default .next), relative to the project. */
export function nextDistDir() {
  return process.env.NEXT_DIST_DIR ?? ".next";
}

/**
 * DNS_RESOLVER: the resolvers the DNS checks ask (host[:port], comma-separated), the system's when unset. Read at
 * each check, because a test or the sandbox points a running process at its own resolver.
 */
export function dnsResolvers() {
  return list(process.env.DNS_RESOLVER);
}

/** The environment as a whole, for the modules that validate a group of settings with their own schema. */
export function environment() {
  return process.env;
}

/** LISTS_HELD_DAYS: how long a held list post waits (default 14; what is not a positive number counts as unset). */
export function listsHeldDays() {
  return Number(process.env.LISTS_HELD_DAYS ?? 14) || 14;
}

/** PG_BIN: the folder of PostgreSQL's client programs (Debian's postgresql-client-15 by default). */
export function pgBinDir() {
  return process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
}

/** MAIL_DB_PASSWORD: the password of the mail daemons' read-only database role, when set (empty counts as unset). */
export function mailDbPassword() {
  return process.env.MAIL_DB_PASSWORD || undefined;
}

/** POSTMASTER_PASSWORD: `domain add`'s password for the new postmaster, when set (empty counts as unset). */
export function postmasterPassword() {
  return process.env.POSTMASTER_PASSWORD || undefined;
}

/** ACCOUNT_PASSWORD: `account set-password`'s new password, when set (empty counts as unset). */
export function accountPassword() {
  return process.env.ACCOUNT_PASSWORD || undefined;
}

/**
 * The directory a CLI command was typed in, which relative file names start from: INIT_CWD, set by `npm run` (which
 * runs the CLI in the package's folder), else the working directory.
 */
export function operatorDirectory() {
  return process.env.INIT_CWD || process.cwd();
}

/** CHECK_PASSWORD: the password of `mailserver check`'s account, when set (empty counts as unset). */
export function checkPassword() {
  return process.env.CHECK_PASSWORD || undefined;
}

/** Whether MAIL_HOST is set at all (unset, lib/server/env.ts takes the machine's name). */
export function mailHostSet() {
  return Boolean(process.env.MAIL_HOST);
}

/** MAIL_TEST_PORTS (`<low>-<high>`): where the mail tests' daemons take their ports, beside other runs on the host. */
export function mailTestPorts() {
  return process.env.MAIL_TEST_PORTS ?? "";
}

/** SMS_CONFIG: the SMS gateway's configuration file, when set. */
export function smsConfigPath() {
  return process.env.SMS_CONFIG;
}

/** SMS_SECRET_KEY: the key that encrypts SMS gateway secrets, when set (empty counts as unset). */
export function smsSecretKey() {
  return process.env.SMS_SECRET_KEY || undefined;
}

/** TOTP_ENCRYPTION_KEY_OLD and SMS_SECRET_KEY_OLD: the keys `db reencrypt` decrypts with (empty counts as unset). */
export function oldEncryptionKeys() {
  return {
    totp: process.env.TOTP_ENCRYPTION_KEY_OLD || undefined,
    sms: process.env.SMS_SECRET_KEY_OLD || undefined,
  };
}

/**
 * DOVEADM_PASSWORD: the doveadm server's password of `mailserver sandbox`, the same on every mail host that moves
 * domains to another (docs/mail-hosts.md); empty counts as unset. From the environment, not an option: `ps` shows a
 * command line to every local user.
 */
export function doveadmPassword() {
  return process.env.DOVEADM_PASSWORD || undefined;
}

/** MAIL_HOST_NAME: this mail host's name among several, trimmed; undefined when unset or blank. */
export function mailHostName() {
  return process.env.MAIL_HOST_NAME?.trim() || undefined;
}

/** A comma-separated setting's entries, trimmed, without empty ones. */
function list(setting) {
  return (setting ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** What the API's workers may open together by default: 60 of PostgreSQL's default max_connections of 100. */
const DEFAULT_POOL_BUDGET = 60;

/**
 * The application_name of the API server's PostgreSQL connections (PGAPPNAME, set by lib/runtime/server.mjs), by
 * which `mailserver check` tells its host's running API from the other connections it counts.
 */
export const API_APPLICATION_NAME = "mailadmin-api";

/** Names the PostgreSQL connections of this process and of the processes it starts (PGAPPNAME, as libpq reads it). */
export function nameApiConnections() {
  process.env.PGAPPNAME = API_APPLICATION_NAME;
}

/**
 * Connections per process on PostgreSQL: DATABASE_POOL_MAX, or by default the budget shared by the workers
 * (2 to 10 each), so that workers × pool stays under max_connections with room for the mail hosts and the CLI.
 */
export function databasePoolMax() {
  const setting = process.env.DATABASE_POOL_MAX;
  if (setting !== undefined && setting !== "") {
    const n = Number(setting);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`DATABASE_POOL_MAX must be a positive integer, got "${setting}"`);
    return n;
  }
  const workers = Number(workersSetting() ?? os.availableParallelism()) || 1;
  return Math.max(2, Math.min(10, Math.floor(DEFAULT_POOL_BUDGET / workers)));
}

/**
 * A postgres:// URL as node-postgres must get it to read sslmode and sslrootcert as libpq does (pg_dump, Postfix and
 * Dovecot are libpq): `sslmode=require` encrypts without verifying unless sslrootcert is given, as in libpq, instead
 * of node-postgres's own reading (verify-full). `sslmode=no-verify` is node-postgres's alone and refused.
 */
export function nodePgConnectionString(url) {
  // Node's own error says only "Invalid URL", and the usual cause is a password with URL characters in it. Such a
  // password may also leave a URL that parses, the user name taken for the host: postgres://mailadmin:/Kx9@db1/...
  // or postgres://mailadmin:12#x@db1/... name the host "mailadmin" and no user ("getaddrinfo ENOTFOUND mailadmin").
  const u = URL.canParse(url) ? new URL(url) : undefined;
  if (!u || (!u.username && !u.searchParams.has("user") && url.includes("@")))
    throw new Error(
      "DATABASE_URL is not a valid URL: percent-encode the special characters of the user name and password " +
        "(# as %23, / as %2F, @ as %40, ? as %3F, : as %3A, % as %25)",
    );
  const mode = u.searchParams.get("sslmode");
  if (mode === "no-verify")
    throw new Error("sslmode=no-verify is not understood by libpq (pg_dump, Postfix, Dovecot): use sslmode=require");
  if (mode && !u.searchParams.has("uselibpqcompat")) u.searchParams.set("uselibpqcompat", "true");
  return u.toString();
}
