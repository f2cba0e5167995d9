// Seeds a fresh benchmark database: one big domain, one mid-size domain, many small ones, aliases and mailing
// lists with members. Rows go in through prepared statements, in batches of one transaction each.
//
// Synthetic accounts share ONE password hash: scrypt (at the production cost) is derived once per distinct
// password and reused, because paying ~50 ms of scrypt 100,000 times would make seeding take over an hour and
// measure nothing about the service. Only the postmasters' password is used to log in.
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
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

export const FIRST = [
  "anna",
  "jan",
  "piotr",
  "katarzyna",
  "tomasz",
  "agnieszka",
  "marek",
  "ewa",
  "pawel",
  "magdalena",
  "krzysztof",
  "joanna",
  "michal",
  "barbara",
  "andrzej",
  "zofia",
  "lukasz",
  "monika",
  "grzegorz",
  "aleksandra",
  "jakub",
  "natalia",
  "adam",
  "karolina",
  "marcin",
  "dorota",
  "wojciech",
  "beata",
  "rafal",
  "ola",
];
export const LAST = [
  "nowak",
  "kowalski",
  "wisniewski",
  "wojcik",
  "kowalczyk",
  "kaminski",
  "lewandowski",
  "zielinski",
  "szymanski",
  "wozniak",
  "dabrowski",
  "kozlowski",
  "jankowski",
  "mazur",
  "kwiatkowski",
  "krawczyk",
  "piotrowski",
  "grabowski",
  "nowakowski",
  "pawlowski",
  "michalski",
  "nowicki",
  "adamczyk",
  "dudek",
  "zajac",
  "wieczorek",
  "jablonski",
  "krol",
  "majewski",
  "olszewski",
  "jaworski",
  "wrobel",
  "malinowski",
  "pawlak",
  "witkowski",
  "walczak",
];
export const ROLE = [
  "Księgowość",
  "Dział IT",
  "Sprzedaż",
  "Marketing",
  "Zarząd",
  "Magazyn",
  "Obsługa klienta",
  "Kadry",
  "Logistyka",
  "Serwis",
  "Dział prawny",
  "Zakupy",
  "Produkcja",
  "Recepcja",
  "Kontrola jakości",
];
export const CITY = [
  "Warszawa",
  "Kraków",
  "Łódź",
  "Wrocław",
  "Poznań",
  "Gdańsk",
  "Szczecin",
  "Lublin",
  "Katowice",
  "Białystok",
];
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

/** One synthetic account, as both engines' writers insert it. */
interface AccountRow {
  domain: string;
  name: string;
  description: string;
  capacity: number;
  usage: number;
  hash: string;
  expiration: string;
  creation: string;
  lastAuth: string;
  lastAuthIp: string;
  forwards: string;
  blocked: number;
  white: string;
  black: string;
}

/** Everything the seed writes, generated once (same PRNG sequence as ever) and written by either engine's writer. */
interface SeedPlan {
  domains: { name: string; accountLimit: number }[];
  /** In domains' order: each domain's postmaster first, then its people (batched per 10,000 by the writers). */
  accounts: AccountRow[];
  aliases: { name: string; target: string }[];
  lists: {
    name: string;
    description: string;
    privacy: number;
    replyto: number;
    autosubscribe: number;
    members: string[];
  }[];
}

function plan(sizes: SeedSizes): SeedPlan {
  const random = rng(42);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const date = (fromYear: number, toYear: number) =>
    `${fromYear + Math.floor(random() * (toYear - fromYear + 1))}-${pad(1 + Math.floor(random() * 12), 2)}-${pad(1 + Math.floor(random() * 28), 2)}`;

  // The two hashes, each derived once (see the header comment).
  const adminHash = hashPassword(ADMIN_PASSWORD);
  const userHash = hashPassword("Synthetic-user1");
  const out: SeedPlan = { domains: [], accounts: [], aliases: [], lists: [] };

  const addAccount = (domain: string, name: string, description: string, hash: string) => {
    const capacity = pick(CAPACITIES);
    const usage = Math.floor(random() * random() * capacity * MB);
    const forwards =
      random() < 0.15 ? [`${pick(FIRST)}.${pick(LAST)}@external${Math.floor(random() * 50)}.example.org`] : [];
    const white = random() < 0.1 ? [`*@partner${Math.floor(random() * 100)}.example.net`] : [];
    const black = random() < 0.05 ? [`spam${Math.floor(random() * 1000)}@junk.example`] : [];
    const lastAuth = random() < 0.7 ? date(2024, 2026) : "";
    const expiration = random() < 0.2 ? date(2026, 2030) : "";
    const creation = date(2015, 2026);
    const lastAuthIp = lastAuth
      ? `10.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`
      : "";
    out.accounts.push({
      domain,
      name,
      description,
      capacity,
      usage,
      hash,
      expiration,
      creation,
      lastAuth,
      lastAuthIp,
      forwards: JSON.stringify(forwards),
      blocked: random() < 0.02 ? 1 : 0,
      white: JSON.stringify(white),
      black: JSON.stringify(black),
    });
  };

  /** A domain with a postmaster and `count - 1` people; their names. */
  const fillDomain = (domain: string, count: number): string[] => {
    out.domains.push({ name: domain, accountLimit: count + 1000 });
    addAccount(domain, "postmaster", "Administrator domeny", adminHash);
    const names: string[] = [];
    for (let i = 1; i < count; i++) {
      const name = `${pick(FIRST)}.${pick(LAST)}${i}`;
      const description = `${pick(FIRST)[0]!.toUpperCase()}${pick(FIRST).slice(1)} ${pick(LAST)} – ${pick(ROLE)}, ${pick(CITY)}`;
      addAccount(domain, name, description, userHash);
      names.push(name);
    }
    return names;
  };

  const bigNames = fillDomain(BIG_DOMAIN, sizes.bigAccounts);
  fillDomain(MID_DOMAIN, sizes.midAccounts);
  for (let i = 0; i < sizes.smallDomains; i++) {
    const domain = `firma${pad(i, 4)}.example.pl`;
    out.domains.push({ name: domain, accountLimit: 100 });
    addAccount(domain, "postmaster", "Administrator domeny", adminHash);
    for (let j = 0; j < 3; j++)
      addAccount(domain, `${pick(FIRST)}.${pick(LAST)}`.concat(String(j)), pick(ROLE), userHash);
  }
  for (let i = 0; i < sizes.aliases; i++) {
    const name = `alias-${pick(LAST)}-${i}`;
    out.aliases.push({ name, target: `${pick(bigNames)}@${BIG_DOMAIN}` });
  }
  for (let i = 0; i < sizes.lists; i++) {
    const name = `lista-${i}`;
    const description = `Lista ${pick(ROLE)} ${pick(CITY)}`;
    const privacy = Math.floor(random() * 3);
    const replyto = Math.floor(random() * 2);
    const autosubscribe = random() < 0.3 ? 1 : 0;
    const subscribers = name === FULL_LIST ? sizes.maxSubscribers : Math.floor(random() * (sizes.maxSubscribers + 1));
    const start = Math.floor(random() * bigNames.length);
    const members: string[] = [];
    for (let k = 0; k < subscribers; k++) members.push(`${bigNames[(start + k) % bigNames.length]}@${BIG_DOMAIN}`);
    out.lists.push({ name, description, privacy, replyto, autosubscribe, members });
  }
  return out;
}

const listMemberCount = (p: SeedPlan) => p.lists.reduce((n, l) => n + l.members.length + 1, 0);

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
  const batch = sqlite.transaction((rows: AccountRow[]) => {
    for (const a of rows) {
      insertAccount.run(
        domainIds.get(a.domain)!,
        a.name,
        `${a.name}@${a.domain}`,
        a.description,
        searchKey(a.name, a.description),
        a.capacity,
        a.usage,
        Math.floor(a.usage / 50_000),
        a.hash,
        a.expiration,
        a.creation,
        a.lastAuth,
        a.lastAuthIp,
        a.forwards,
        a.blocked,
        a.white,
        a.black,
      );
    }
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
          t.subscribe_request_mail_body,
          t.subscribe_request_mail_subject,
          t.unsubscribe_request_mail_body,
          t.unsubscribe_request_mail_subject,
          t.subscribe_mail_body,
          t.subscribe_mail_subject,
          t.unsubscribe_mail_body,
          t.unsubscribe_mail_subject,
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
  return {
    file,
    seconds: (performance.now() - started) / 1000,
    accounts: p.accounts.length,
    listMembers: listMemberCount(p),
  };
}

/**
 * Seeds the (empty, or migrated) PostgreSQL database at `url` with the same rows as seed(): migrated first, then
 * multi-row INSERTs of up to 10,000 rows each (`INSERT ... SELECT FROM unnest($1::int[], $2::text[], ...)`: one
 * statement and one round trip per batch), each batch its own transaction, with the migrations' triggers (domain
 * counters, statement-level) and indexes (the trigram GIN ones included) kept up as in production. Then
 * `VACUUM (ANALYZE)`, as an operator would after a bulk load.
 */
export async function seedPostgres(url: string, sizes: SeedSizes): Promise<SeedResult> {
  const started = performance.now();
  // Two connections: migrating holds one for its advisory lock and runs on the other (db/pg/client.ts).
  const db = await openPostgres(url, { max: 2 });
  const pool = db.$client;
  try {
    const p = plan(sizes);
    const q = (text: string, values: unknown[]) => pool.query(text, values);
    const domainRows = await q(
      `INSERT INTO domains (name, account_limit, alias_limit, mailinglist_limit, capacity_limit)
       SELECT n, l, greatest(1000, l), 1000, 1000000000 FROM unnest($1::text[], $2::int[]) AS t(n, l) RETURNING id, name`,
      [p.domains.map((d) => d.name), p.domains.map((d) => d.accountLimit)],
    );
    const domainIds = new Map((domainRows.rows as { id: number; name: string }[]).map((r) => [r.name, r.id]));
    for (let i = 0; i < p.accounts.length; i += 10_000) {
      const rows = p.accounts.slice(i, i + 10_000);
      const col = <T>(f: (a: AccountRow) => T) => rows.map(f);
      await q(
        `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, usage_bytes, usage_messages,
           password_hash, expiration_date, creation_date, last_auth_date, last_auth_ip, forwards, blocked,
           spam_white_list, spam_black_list)
         SELECT d, n, e, de, k, c, u, m, h, x, cr, la, ip, f::jsonb, b, w::jsonb, bl::jsonb
         FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[], $8::bigint[],
           $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::int[], $16::text[], $17::text[])
           AS t(d, n, e, de, k, c, u, m, h, x, cr, la, ip, f, b, w, bl)`,
        [
          col((a) => domainIds.get(a.domain)!),
          col((a) => a.name),
          col((a) => `${a.name}@${a.domain}`),
          col((a) => a.description),
          col((a) => searchKey(a.name, a.description)),
          col((a) => a.capacity),
          col((a) => a.usage),
          col((a) => Math.floor(a.usage / 50_000)),
          col((a) => a.hash),
          col((a) => a.expiration),
          col((a) => a.creation),
          col((a) => a.lastAuth),
          col((a) => a.lastAuthIp),
          col((a) => a.forwards),
          col((a) => a.blocked),
          col((a) => a.white),
          col((a) => a.black),
        ],
      );
    }
    const bigId = domainIds.get(BIG_DOMAIN)!;
    await q(
      `INSERT INTO aliases (domain_id, name, email, target, search_key)
       SELECT $1, n, n || '@' || $2, t, k FROM unnest($3::text[], $4::text[], $5::text[]) AS x(n, t, k)`,
      [
        bigId,
        BIG_DOMAIN,
        p.aliases.map((a) => a.name),
        p.aliases.map((a) => a.target),
        p.aliases.map((a) => searchKey(a.name, a.target)),
      ],
    );
    const t = DEFAULT_LIST_TEMPLATES;
    const lists = await q(
      `INSERT INTO mailing_lists (domain_id, name, email, description, search_key, privacy_mode, replyto_mode,
         autosubscribe_enabled, subscribe_request_mail_body, subscribe_request_mail_subject,
         unsubscribe_request_mail_body, unsubscribe_request_mail_subject, subscribe_mail_body, subscribe_mail_subject,
         unsubscribe_mail_body, unsubscribe_mail_subject)
       SELECT $1, n, n || '@' || $2, de, k, pm, rm, ae, $9, $10, $11, $12, $13, $14, $15, $16
       FROM unnest($3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[]) AS x(n, de, k, pm, rm, ae)
       RETURNING id, name`,
      [
        bigId,
        BIG_DOMAIN,
        p.lists.map((l) => l.name),
        p.lists.map((l) => l.description),
        p.lists.map((l) => searchKey(l.name, l.description)),
        p.lists.map((l) => l.privacy),
        p.lists.map((l) => l.replyto),
        p.lists.map((l) => l.autosubscribe),
        t.subscribe_request_mail_body,
        t.subscribe_request_mail_subject,
        t.unsubscribe_request_mail_body,
        t.unsubscribe_request_mail_subject,
        t.subscribe_mail_body,
        t.subscribe_mail_subject,
        t.unsubscribe_mail_body,
        t.unsubscribe_mail_subject,
      ],
    );
    const listIds = new Map((lists.rows as { id: number; name: string }[]).map((r) => [r.name, r.id]));
    const members: { list: number[]; role: string[]; address: string[]; position: number[] } = {
      list: [],
      role: [],
      address: [],
      position: [],
    };
    const addMember = (list: number, role: string, address: string, position: number) => {
      members.list.push(list);
      members.role.push(role);
      members.address.push(address);
      members.position.push(position);
    };
    for (const l of p.lists) {
      const id = listIds.get(l.name)!;
      l.members.forEach((address, k) => addMember(id, "subscriber", address, k));
      addMember(id, "moderator", `postmaster@${BIG_DOMAIN}`, 0);
    }
    for (let i = 0; i < members.list.length; i += 50_000) {
      const s = <T>(xs: T[]) => xs.slice(i, i + 50_000);
      await q(
        `INSERT INTO list_members (list_id, role, address, position)
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::int[])`,
        [s(members.list), s(members.role), s(members.address), s(members.position)],
      );
    }
    await pool.query("VACUUM (ANALYZE)");
    return {
      file: url,
      seconds: (performance.now() - started) / 1000,
      accounts: p.accounts.length,
      listMembers: listMemberCount(p),
    };
  } finally {
    await pool.end();
  }
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

/** accountNames() on PostgreSQL. */
export async function accountNamesPg(url: string, domain: string, count: number): Promise<string[]> {
  const db = await openPostgres(url, { max: 1, migrate: false });
  try {
    const r = await db.$client.query(
      `SELECT a.name FROM accounts a JOIN domains d ON d.id = a.domain_id
       WHERE d.name = $1 AND a.name <> 'postmaster' ORDER BY a.id LIMIT $2`,
      [domain, count],
    );
    return (r.rows as { name: string }[]).map((x) => x.name);
  } finally {
    await db.$client.end();
  }
}
