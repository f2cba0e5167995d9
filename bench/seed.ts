// Seeds a fresh benchmark database: one big domain, one mid-size domain, many small ones, aliases and mailing
// lists with members. Rows go in through prepared statements, in batches of one transaction each.
//
// Synthetic accounts share ONE password hash: scrypt (at the production cost) is derived once per distinct
// password and reused, because paying ~50 ms of scrypt 100,000 times would make seeding take over an hour and
// measure nothing about the service. Only the postmasters' password is used to log in.
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { DEFAULT_LIST_TEMPLATES } from "@/lib/schemas/mailing-list";
import { searchKey } from "@/lib/server/resources/list-page";
import { hashPassword } from "@/lib/server/caller/password";

export interface SeedSizes {
  bigAccounts: number;
  midAccounts: number;
  aliases: number;
  lists: number;
  maxSubscribers: number;
  smallDomains: number;
}

export const FULL_SIZES: SeedSizes = {
  bigAccounts: 100_000,
  midAccounts: 10_000,
  aliases: 20_000,
  lists: 500,
  maxSubscribers: 1_000,
  smallDomains: 1_000,
};

export const QUICK_SIZES: SeedSizes = {
  bigAccounts: 5_000,
  midAccounts: 500,
  aliases: 500,
  lists: 20,
  maxSubscribers: 1_000,
  smallDomains: 20,
};

export const BIG_DOMAIN = "big.example.com";
export const MID_DOMAIN = "mid.example.com";
export const ADMIN_PASSWORD = "Bench-admin1";
/** The list every run reads: it always has exactly maxSubscribers subscribers. */
export const FULL_LIST = "lista-0";

export const FIRST = ["anna", "jan", "piotr", "katarzyna", "tomasz", "agnieszka", "marek", "ewa", "pawel", "magdalena",
  "krzysztof", "joanna", "michal", "barbara", "andrzej", "zofia", "lukasz", "monika", "grzegorz", "aleksandra",
  "jakub", "natalia", "adam", "karolina", "marcin", "dorota", "wojciech", "beata", "rafal", "ola"];
export const LAST = ["nowak", "kowalski", "wisniewski", "wojcik", "kowalczyk", "kaminski", "lewandowski", "zielinski",
  "szymanski", "wozniak", "dabrowski", "kozlowski", "jankowski", "mazur", "kwiatkowski", "krawczyk", "piotrowski",
  "grabowski", "nowakowski", "pawlowski", "michalski", "nowicki", "adamczyk", "dudek", "zajac", "wieczorek",
  "jablonski", "krol", "majewski", "olszewski", "jaworski", "wrobel", "malinowski", "pawlak", "witkowski", "walczak"];
export const ROLE = ["Księgowość", "Dział IT", "Sprzedaż", "Marketing", "Zarząd", "Magazyn", "Obsługa klienta", "Kadry",
  "Logistyka", "Serwis", "Dział prawny", "Zakupy", "Produkcja", "Recepcja", "Kontrola jakości"];
export const CITY = ["Warszawa", "Kraków", "Łódź", "Wrocław", "Poznań", "Gdańsk", "Szczecin", "Lublin", "Katowice", "Białystok"];
const CAPACITIES = [256, 512, 1024, 2048, 5120, 10240];
const MB = 1024 * 1024;

/** A small deterministic PRNG, so every run measures the same data. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedResult {
  file: string;
  seconds: number;
  accounts: number;
  listMembers: number;
}

const pad = (n: number, w: number) => String(n).padStart(w, "0");

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
  const random = rng(42);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const date = (fromYear: number, toYear: number) =>
    `${fromYear + Math.floor(random() * (toYear - fromYear + 1))}-${pad(1 + Math.floor(random() * 12), 2)}-${pad(1 + Math.floor(random() * 28), 2)}`;

  // The two hashes, each derived once (see the header comment).
  const adminHash = hashPassword(ADMIN_PASSWORD);
  const userHash = hashPassword("Synthetic-user1");

  const insertDomain = sqlite.prepare(
    `INSERT INTO domains (name, account_limit, alias_limit, mailinglist_limit, capacity_limit) VALUES (?, ?, ?, ?, ?)`,
  );
  const insertAccount = sqlite.prepare(
    `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, usage_bytes, usage_messages,
       password_hash, expiration_date, creation_date, last_auth_date, last_auth_ip, forwards, blocked,
       spam_white_list, spam_black_list)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertAlias = sqlite.prepare(
    `INSERT INTO aliases (domain_id, name, email, target, search_key) VALUES (?, ?, ?, ?, ?)`,
  );
  const t = DEFAULT_LIST_TEMPLATES;
  const insertList = sqlite.prepare(
    `INSERT INTO mailing_lists (domain_id, name, email, description, search_key, privacy_mode, replyto_mode,
       autosubscribe_enabled, subscribe_request_mail_body, subscribe_request_mail_subject,
       unsubscribe_request_mail_body, unsubscribe_request_mail_subject, subscribe_mail_body, subscribe_mail_subject,
       unsubscribe_mail_body, unsubscribe_mail_subject)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMember = sqlite.prepare(`INSERT INTO list_members (list_id, role, address, position) VALUES (?, ?, ?, ?)`);

  let accountCount = 0;
  const addDomain = (name: string, accountLimit: number): number =>
    Number(insertDomain.run(name, accountLimit, Math.max(1000, accountLimit), 1000, 1_000_000_000).lastInsertRowid);

  const addAccount = (domainId: number, domain: string, name: string, description: string, hash: string) => {
    const capacity = pick(CAPACITIES);
    const usage = Math.floor(random() * random() * capacity * MB);
    const forwards = random() < 0.15 ? [`${pick(FIRST)}.${pick(LAST)}@external${Math.floor(random() * 50)}.example.org`] : [];
    const white = random() < 0.1 ? [`*@partner${Math.floor(random() * 100)}.example.net`] : [];
    const black = random() < 0.05 ? [`spam${Math.floor(random() * 1000)}@junk.example`] : [];
    const lastAuth = random() < 0.7 ? date(2024, 2026) : "";
    insertAccount.run(
      domainId, name, `${name}@${domain}`, description, searchKey(name, description), capacity, usage,
      Math.floor(usage / 50_000), hash, random() < 0.2 ? date(2026, 2030) : "", date(2015, 2026), lastAuth,
      lastAuth ? `10.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}` : "",
      JSON.stringify(forwards), random() < 0.02 ? 1 : 0, JSON.stringify(white), JSON.stringify(black),
    );
    accountCount++;
  };

  /** Fills a domain with a postmaster and `count - 1` people, in transactions of 10,000 rows. */
  const fillDomain = (domain: string, count: number): { id: number; names: string[] } => {
    const id = sqlite.transaction(() => {
      const domainId = addDomain(domain, count + 1000);
      addAccount(domainId, domain, "postmaster", "Administrator domeny", adminHash);
      return domainId;
    })();
    const names: string[] = [];
    const batch = sqlite.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const name = `${pick(FIRST)}.${pick(LAST)}${i}`;
        const description = `${pick(FIRST)[0]!.toUpperCase()}${pick(FIRST).slice(1)} ${pick(LAST)} – ${pick(ROLE)}, ${pick(CITY)}`;
        addAccount(id, domain, name, description, userHash);
        names.push(name);
      }
    });
    for (let i = 1; i < count; i += 10_000) batch(i, Math.min(count, i + 10_000));
    return { id, names };
  };

  const big = fillDomain(BIG_DOMAIN, sizes.bigAccounts);
  fillDomain(MID_DOMAIN, sizes.midAccounts);

  sqlite.transaction(() => {
    for (let i = 0; i < sizes.smallDomains; i++) {
      const domain = `firma${pad(i, 4)}.example.pl`;
      const id = addDomain(domain, 100);
      addAccount(id, domain, "postmaster", "Administrator domeny", adminHash);
      for (let j = 0; j < 3; j++) addAccount(id, domain, `${pick(FIRST)}.${pick(LAST)}`.concat(String(j)), pick(ROLE), userHash);
    }
  })();

  sqlite.transaction(() => {
    for (let i = 0; i < sizes.aliases; i++) {
      const name = `alias-${pick(LAST)}-${i}`;
      const target = `${pick(big.names)}@${BIG_DOMAIN}`;
      insertAlias.run(big.id, name, `${name}@${BIG_DOMAIN}`, target, searchKey(name, target));
    }
  })();

  let listMembers = 0;
  sqlite.transaction(() => {
    for (let i = 0; i < sizes.lists; i++) {
      const name = `lista-${i}`;
      const description = `Lista ${pick(ROLE)} ${pick(CITY)}`;
      const listId = Number(
        insertList.run(
          big.id, name, `${name}@${BIG_DOMAIN}`, description, searchKey(name, description), Math.floor(random() * 3),
          Math.floor(random() * 2), random() < 0.3 ? 1 : 0, t.subscribe_request_mail_body,
          t.subscribe_request_mail_subject, t.unsubscribe_request_mail_body, t.unsubscribe_request_mail_subject,
          t.subscribe_mail_body, t.subscribe_mail_subject, t.unsubscribe_mail_body, t.unsubscribe_mail_subject,
        ).lastInsertRowid,
      );
      const subscribers = name === FULL_LIST ? sizes.maxSubscribers : Math.floor(random() * (sizes.maxSubscribers + 1));
      const start = Math.floor(random() * big.names.length);
      for (let k = 0; k < subscribers; k++) {
        insertMember.run(listId, "subscriber", `${big.names[(start + k) % big.names.length]}@${BIG_DOMAIN}`, k);
      }
      insertMember.run(listId, "moderator", `postmaster@${BIG_DOMAIN}`, 0);
      listMembers += subscribers + 1;
    }
  })();

  // What an operator runs after a bulk load (and cron daily): the search index as one segment (search-index.ts).
  // (the SQLite dialect's `db optimize`, run here on the seeding connection: db/sqlite/dialect.ts)
  db.$client.exec("INSERT INTO accounts_search(accounts_search) VALUES ('optimize')");
  db.$client.pragma("optimize");
  sqlite.pragma("journal_mode = WAL");
  sqlite.close();
  return { file, seconds: (performance.now() - started) / 1000, accounts: accountCount, listMembers };
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
