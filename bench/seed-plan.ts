// The benchmark data set, generated once from a fixed PRNG seed and written by either engine's seeder
// (seed.ts for SQLite, seed-pg.ts for PostgreSQL).
import { DEFAULT_LIST_TEMPLATES } from "@/lib/schemas/mailing-list";
import { hashPassword } from "@/lib/server/caller/password";
import { searchKey } from "@/lib/server/resources/page";

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

export const pad = (n: number, w: number) => String(n).padStart(w, "0");

/** One synthetic account, as both engines' writers insert it. */
export interface AccountRow {
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

/**
 * How both writers insert an account: the columns filled, with their PostgreSQL types (jsonb columns travel as text
 * and are cast), and a row's values in that order.
 */
export const ACCOUNTS = {
  columns: {
    domain_id: "int",
    name: "text",
    email: "text",
    description: "text",
    search_key: "text",
    capacity: "int",
    usage_bytes: "bigint",
    usage_messages: "bigint",
    password_hash: "text",
    expiration_date: "text",
    creation_date: "text",
    last_auth_date: "text",
    last_auth_ip: "text",
    forwards: "jsonb",
    blocked: "int",
    spam_white_list: "jsonb",
    spam_black_list: "jsonb",
  } as const,
  values: (a: AccountRow, domainId: number): (string | number)[] => [
    domainId,
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
  ],
};

/** What a writer reports once `p` is in the database at `file` (a path or URL), seeding having begun at `started`. */
export const seedResult = (file: string, started: number, p: SeedPlan): SeedResult => ({
  file,
  seconds: (performance.now() - started) / 1000,
  accounts: p.accounts.length,
  listMembers: listMemberCount(p),
});

/** Everything the seed writes, generated once (same PRNG sequence as ever) and written by either engine's writer. */
export interface SeedPlan {
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

export function plan(sizes: SeedSizes): SeedPlan {
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

export const listMemberCount = (p: SeedPlan) => p.lists.reduce((n, l) => n + l.members.length + 1, 0);

/** The default list templates, in the column order every bench writer inserts them. */
export const TEMPLATE_VALUES = [
  DEFAULT_LIST_TEMPLATES.subscribe_request_mail_body,
  DEFAULT_LIST_TEMPLATES.subscribe_request_mail_subject,
  DEFAULT_LIST_TEMPLATES.unsubscribe_request_mail_body,
  DEFAULT_LIST_TEMPLATES.unsubscribe_request_mail_subject,
  DEFAULT_LIST_TEMPLATES.subscribe_mail_body,
  DEFAULT_LIST_TEMPLATES.subscribe_mail_subject,
  DEFAULT_LIST_TEMPLATES.unsubscribe_mail_body,
  DEFAULT_LIST_TEMPLATES.unsubscribe_mail_subject,
];
