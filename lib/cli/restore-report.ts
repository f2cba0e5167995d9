// What `db restore` changed for the mail hosts: the database goes back to the backup's day, the mailboxes on the
// hosts do not. An account created after the backup is gone but its folder stays (an account created again under
// that address for someone else would read the previous owner's mail), and a domain or account placed on another
// host since then is sent back to the backup's host, where its mailboxes are not. The restore prints both, so the
// operator decides (docs/postgresql.md and docs/deploy.md, restoring a backup).
import Database from "better-sqlite3";
import fs from "node:fs";
import pg from "pg";
import { nodePgConnectionString } from "@/lib/config.mjs";

/** Each account's mail host (its own placement, else its domain's; "" for none) and each domain's. */
export interface Placements {
  accounts: Map<string, string>;
  domains: Map<string, string>;
}

const ACCOUNTS = `SELECT a.email AS name, COALESCE(a.mail_host, d.mail_host, '') AS host
  FROM accounts a JOIN domains d ON d.id = a.domain_id`;
const DOMAINS = `SELECT name, COALESCE(mail_host, '') AS host FROM domains`;
const UNPLACED_ACCOUNTS = `SELECT email AS name, '' AS host FROM accounts`;
const UNPLACED_DOMAINS = `SELECT name, '' AS host FROM domains`;

function toPlacements(accounts: { name: string; host: string }[], domains: { name: string; host: string }[]) {
  return {
    accounts: new Map(accounts.map((r) => [r.name, r.host])),
    domains: new Map(domains.map((r) => [r.name, r.host])),
  };
}

/** The placements in the SQLite file `file` (none when there is no file yet); read only, never migrated. */
export function sqlitePlacements(file: string): Placements {
  if (!fs.existsSync(file)) return toPlacements([], []);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'accounts'`).get())
      return toPlacements([], []);
    type Row = { name: string; host: string };
    // A backup made before mail hosts existed (the service migrates it on its start) places nothing.
    if (!db.prepare(`SELECT 1 FROM pragma_table_info('domains') WHERE name = 'mail_host'`).get())
      return toPlacements(db.prepare(UNPLACED_ACCOUNTS).all() as Row[], db.prepare(UNPLACED_DOMAINS).all() as Row[]);
    return toPlacements(db.prepare(ACCOUNTS).all() as Row[], db.prepare(DOMAINS).all() as Row[]);
  } finally {
    db.close();
  }
}

/** The placements in PostgreSQL's database at `url` (none in a database without the service's tables). */
export async function postgresPlacements(url: string): Promise<Placements> {
  const client = new pg.Client({ connectionString: nodePgConnectionString(url) });
  await client.connect();
  try {
    const exists = await client.query<{ t: boolean }>(`SELECT to_regclass('accounts') IS NOT NULL AS t`);
    if (!exists.rows[0]?.t) return toPlacements([], []);
    type Row = { name: string; host: string };
    return toPlacements((await client.query<Row>(ACCOUNTS)).rows, (await client.query<Row>(DOMAINS)).rows);
  } finally {
    await client.end();
  }
}

const hostName = (host: string) => host || "no host";

/** The lines the restore prints after its summary: what the mail hosts now hold that the database does not say. */
export function restoreReport(before: Placements, after: Placements): string[] {
  const gone = [...before.accounts].filter(([email]) => !after.accounts.has(email));
  const movedDomains = [...before.domains].filter(
    ([name, host]) => after.domains.has(name) && after.domains.get(name) !== host,
  );
  const moved = new Set(movedDomains.map(([name]) => name));
  const movedAccounts = [...before.accounts].filter(
    ([email, host]) =>
      after.accounts.has(email) &&
      after.accounts.get(email) !== host &&
      !moved.has(email.slice(email.lastIndexOf("@") + 1)),
  );
  const lines: string[] = [];
  if (gone.length) {
    lines.push(
      `${gone.length === 1 ? "1 account created after the backup is" : `${gone.length} accounts created after the backup are`} ` +
        "gone, and the mailboxes stay on their hosts. Created again for the same owner, an account finds its mail; " +
        "before such an address goes to anyone else, remove its folder (docs/postgresql.md, Backup and restore):",
      ...gone.map(([email, host]) => `  not in the backup: ${email} (mailbox on ${hostName(host)})`),
    );
  }
  if (movedDomains.length || movedAccounts.length) {
    lines.push(
      "Placed on another host by the backup: their mail now goes to the backup's host, where their mailboxes are " +
        "not. Set each back (domain set-mail-host, account set-mail-host) or move the mailboxes (docs/mail-hosts.md):",
      ...movedDomains.map(
        ([name, host]) => `  domain ${name}: ${hostName(host)} -> ${hostName(after.domains.get(name)!)}`,
      ),
      ...movedAccounts.map(
        ([email, host]) => `  account ${email}: ${hostName(host)} -> ${hostName(after.accounts.get(email)!)}`,
      ),
    );
  }
  return lines;
}
