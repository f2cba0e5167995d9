// The role Postfix and Dovecot connect as on PostgreSQL (docs/postgresql.md): it reads the mail_* views
// only (a view runs with its owner's rights, so no table is readable directly) and writes mail_quota only
// (Dovecot's quota_clone; the trigger that copies usage into accounts is SECURITY DEFINER). Everything else the mail
// system writes (last login, usage warnings, list posts, SMS queue) goes through `mailserver events` and the list
// service, which use the application's own DATABASE_URL.
import type pg from "pg";

export const MAIL_VIEWS = [
  "mail_domains",
  "mail_mailboxes",
  "mail_alias_map",
  "mail_list_addresses",
  "mail_passdb",
  "mail_userdb",
  "mail_sieve_scripts",
  "mail_account_hosts",
  "mail_sender_logins",
] as const;

/**
 * The views Postfix and Dovecot look up by one key, and the key's column. On PostgreSQL each has a `<view>_for(key)`
 * function returning its rows for the key (migration 0021), which the generated maps ask (mailViewFor).
 */
export const MAIL_LOOKUP_KEYS = {
  mail_domains: "domain",
  mail_mailboxes: "email",
  mail_alias_map: "address",
  mail_list_addresses: "domain",
  mail_passdb: "user",
  mail_userdb: "user",
  mail_account_hosts: "email",
  mail_sender_logins: "sender",
} as const satisfies Partial<Record<(typeof MAIL_VIEWS)[number], string>>;

export type MailLookupView = keyof typeof MAIL_LOOKUP_KEYS;

const ident = (s: string) => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(s)) throw new Error(`${s}: a role name is lowercase letters, digits and _`);
  return `"${s}"`;
};
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The SQL that creates (or updates) the role and its grants; run by the database's owner. Without a password it
 * only grants, to a role that must exist: its password, which every mail host's configuration holds, stays as it is.
 */
export function mailReaderSql(role: string, password: string | undefined, database: string): string {
  const r = ident(role);
  const exists = `SELECT 1 FROM pg_roles WHERE rolname = ${literal(role)}`;
  return (
    [
      password === undefined
        ? `DO $$ BEGIN
  IF NOT EXISTS (${exists}) THEN
    RAISE EXCEPTION 'role ${role.replace(/'/g, "''")} does not exist: give its password (MAIL_DB_PASSWORD) to create it';
  END IF;
END $$`
        : `DO $$ BEGIN
  IF NOT EXISTS (${exists}) THEN
    CREATE ROLE ${r} LOGIN PASSWORD ${literal(password)} NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
  ELSE
    ALTER ROLE ${r} LOGIN PASSWORD ${literal(password)};
  END IF;
END $$`,
      `GRANT CONNECT ON DATABASE "${database.replace(/"/g, '""')}" TO ${r}`,
      `GRANT USAGE ON SCHEMA public TO ${r}`,
      `REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${r}`,
      `GRANT SELECT ON ${MAIL_VIEWS.join(", ")} TO ${r}`,
      // quota_clone upserts (INSERT ... ON CONFLICT DO UPDATE needs SELECT for the conflict check).
      `GRANT SELECT, INSERT, UPDATE ON mail_quota TO ${r}`,
    ].join(";\n") + ";\n"
  );
}

/** Creates or updates the role on the database `client` is connected to (as its owner); see mailReaderSql. */
export async function ensureMailReader(
  client: pg.Pool | pg.Client,
  role: string,
  password: string | undefined,
): Promise<void> {
  const db = (await client.query<{ db: string }>("SELECT current_database() AS db")).rows[0]!.db;
  await client.query(mailReaderSql(role, password, db));
}
