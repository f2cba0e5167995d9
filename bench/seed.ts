// Seeds a fresh benchmark database: one big domain, one mid-size domain, many small ones, aliases and mailing
// lists with members. Rows go in through prepared statements, in batches of one transaction each.
//
// Synthetic accounts share ONE password hash: scrypt (at the production cost) is derived once per distinct
// password and reused, because paying ~50 ms of scrypt 100,000 times would make seeding take over an hour and
// measure nothing about the service. Only the postmasters' password is used to log in.
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { searchKey } from "@/lib/server/resources/page";
import { ACCOUNTS, BIG_DOMAIN, plan, seedResult, TEMPLATE_VALUES, type SeedResult, type SeedSizes } from "./seed-plan";

/** Seeds a fresh SQLite file at `file`. */
export function seed(file: string, sizes: SeedSizes): SeedResult {
  const started = performance.now();
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = openDatabase(file);
  const sqlite = db.$client;
  // Throwaway data: no fsync per transaction, and a page cache big enough for the indexes being filled.
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma("journal_mode = MEMORY");
  sqlite.pragma("cache_size = -262144");
  const p = plan(sizes);

  const insertDomain = sqlite.prepare(
    `INSERT INTO domains (name, account_limit, alias_limit, mailinglist_limit, capacity_limit) VALUES (?, ?, ?, ?, ?)`,
  );
  const columns = Object.keys(ACCOUNTS.columns);
  const insertAccount = sqlite.prepare(
    `INSERT INTO accounts (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  const insertAlias = sqlite.prepare(
    `INSERT INTO aliases (domain_id, name, email, target, search_key) VALUES (?, ?, ?, ?, ?)`,
  );
  const insertList = sqlite.prepare(
    `INSERT INTO mailing_lists (domain_id, name, email, description, search_key, privacy_mode, replyto_mode,
       autosubscribe_enabled, subscribe_request_mail_body, subscribe_request_mail_subject,
       unsubscribe_request_mail_body, unsubscribe_request_mail_subject, subscribe_mail_body, subscribe_mail_subject,
       unsubscribe_mail_body, unsubscribe_mail_subject)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMember = sqlite.prepare(
    `INSERT INTO list_members (list_id, role, address, position) VALUES (?, ?, ?, ?)`,
  );

  const domainIds = new Map<string, number>();
  sqlite.transaction(() => {
    for (const d of p.domains) {
      domainIds.set(
        d.name,
        Number(
          insertDomain.run(d.name, d.accountLimit, Math.max(1000, d.accountLimit), 1000, 1_000_000_000).lastInsertRowid,
        ),
      );
    }
  })();
  const batch = sqlite.transaction((rows: typeof p.accounts) => {
    for (const a of rows) insertAccount.run(...ACCOUNTS.values(a, domainIds.get(a.domain)!));
  });
  for (let i = 0; i < p.accounts.length; i += 10_000) batch(p.accounts.slice(i, i + 10_000));

  const bigId = domainIds.get(BIG_DOMAIN)!;
  sqlite.transaction(() => {
    for (const a of p.aliases)
      insertAlias.run(bigId, a.name, `${a.name}@${BIG_DOMAIN}`, a.target, searchKey(a.name, a.target));
  })();
  sqlite.transaction(() => {
    for (const l of p.lists) {
      const listId = Number(
        insertList.run(
          bigId,
          l.name,
          `${l.name}@${BIG_DOMAIN}`,
          l.description,
          searchKey(l.name, l.description),
          l.privacy,
          l.replyto,
          l.autosubscribe,
          ...TEMPLATE_VALUES,
        ).lastInsertRowid,
      );
      l.members.forEach((address, k) => insertMember.run(listId, "subscriber", address, k));
      insertMember.run(listId, "moderator", `postmaster@${BIG_DOMAIN}`, 0);
    }
  })();

  // What an operator runs after a bulk load (and cron daily): the search index as one segment (search-index.ts).
  // (the SQLite dialect's `db optimize`, run here on the seeding connection: db/sqlite/dialect.ts)
  db.$client.exec("INSERT INTO accounts_search(accounts_search) VALUES ('optimize')");
  db.$client.pragma("optimize");
  sqlite.pragma("journal_mode = WAL");
  sqlite.close();
  return seedResult(file, started, p);
}

/** Names of `count` accounts of the big domain, for the PUT of many names (read back from the file). */
export function accountNames(file: string, domain: string, count: number): string[] {
  const db = openDatabase(file);
  const rows = db.$client
    .prepare(
      `SELECT a.name FROM accounts a JOIN domains d ON d.id = a.domain_id
       WHERE d.name = ? AND a.name <> 'postmaster' ORDER BY a.id LIMIT ?`,
    )
    .all(domain, count) as { name: string }[];
  db.$client.close();
  return rows.map((r) => r.name);
}
