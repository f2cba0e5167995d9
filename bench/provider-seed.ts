// The provider's data: 10,000 domains of skewed sizes (three of 100,000 accounts, a few hundred of 100-5,000, the
// rest under 20, one of exactly 20 for the API's small list), 200,000 aliases and 5,000 lists, generated from a
// fixed seed and written through the migrations' triggers and indexes.
import type pg from "pg";
import { openPostgres } from "@/db/pg/client";
import type { PgCluster } from "@/e2e/support/pg-cluster";
import { searchKey } from "@/lib/server/resources/page";
import { hashPassword } from "@/lib/server/caller/password";
import { mailPasswordHash } from "@/lib/mailserver/sha512-crypt";
import { TEMPLATE_VALUES } from "./seed-plan";

export interface ProviderSizes {
  big: number;
  bigAccounts: number;
  mid: number;
  midMin: number;
  midMax: number;
  small: number;
  aliases: number;
  lists: number;
}

export const PROVIDER_SIZES: ProviderSizes = {
  big: 3,
  bigAccounts: 100_000,
  mid: 300,
  midMin: 100,
  midMax: 5_000,
  small: 9_697,
  aliases: 200_000,
  lists: 5_000,
};

export const PROVIDER_QUICK_SIZES: ProviderSizes = {
  big: 3,
  bigAccounts: 2_000,
  mid: 50,
  midMin: 100,
  midMax: 400,
  small: 1_947,
  aliases: 4_000,
  lists: 100,
};

/** Every synthetic account's password; the postmasters sign in to the API with it. */
export const PROVIDER_PASSWORD = "Synthetic-user1";

/** A deterministic generator, so two runs seed the same rows. */
let state = 0x2545f491;
const random = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
};
export const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const FIRST = ["anna", "piotr", "maria", "jan", "ewa", "tomasz", "katarzyna", "pawel", "agnieszka", "michal"];
const LAST = ["nowak", "kowalski", "wisniewska", "wojcik", "kaminski", "lewandowska", "zielinski", "szymanska"];
const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;

export interface DomainPlan {
  name: string;
  accounts: number;
}

/** The first domain is a 100,000-account one (the API's big list), the first small one has exactly 20 accounts. */
export function plan(sizes: ProviderSizes): DomainPlan[] {
  const out: DomainPlan[] = [];
  for (let i = 0; i < sizes.big; i++) out.push({ name: `duza${i}.example.com`, accounts: sizes.bigAccounts });
  for (let i = 0; i < sizes.mid; i++)
    out.push({ name: `srednia${i}.example.com`, accounts: int(sizes.midMin, sizes.midMax) });
  for (let i = 0; i < sizes.small; i++) {
    const accounts = int(1, 19);
    out.push({ name: `firma${i}.example.pl`, accounts: i === 0 ? 20 : accounts });
  }
  return out;
}

export const ms = (t0: number) => performance.now() - t0;

let stopping = false;
/** Called before the clusters stop: the connections' errors after that (57P01) are the stop's, not the run's. */
export const clustersStopping = () => {
  stopping = true;
};

/**
 * Every pool and client the bench opens gets an error listener: an idle connection's error is emitted, not thrown,
 * and unheard it would end the process with itself (a 57P01 when the clusters stop) instead of the run's real error.
 */
export function listened<T extends pg.Pool | pg.Client>(connection: T, what: string): T {
  (connection as pg.Client).on("error", (err: Error) => {
    if (!stopping) console.error(`${new Date().toISOString().slice(11, 19)} ${what}: connection error: ${err.message}`);
  });
  return connection;
}

export interface Seeded {
  seedingSeconds: number;
  withVacuumSeconds: number;
  accounts: number;
  /** About one address in 500, spread over every domain: the keys of the mail lookups. */
  sample: string[];
}

export async function seed(primary: PgCluster, domains: DomainPlan[], sizes: ProviderSizes): Promise<Seeded> {
  const db = await openPostgres(primary.url, { max: 2 });
  const pool = db.$client;
  const t0 = performance.now();
  const hash = hashPassword(PROVIDER_PASSWORD);
  const mailHash = mailPasswordHash(PROVIDER_PASSWORD);
  const ids = (
    await pool.query(
      `INSERT INTO domains (name, account_limit, alias_limit, mailinglist_limit, capacity_limit)
       SELECT n, greatest(a * 2, 100), 300000, 10000, 2000000000 FROM unnest($1::text[], $2::int[]) AS t(n, a) RETURNING id, name`,
      [domains.map((d) => d.name), domains.map((d) => d.accounts)],
    )
  ).rows as { id: number; name: string }[];
  const idOf = new Map(ids.map((r) => [r.name, r.id]));
  let rows: { d: number; n: string; e: string; de: string; k: string; c: number; u: number }[] = [];
  let accounts = 0;
  const flush = async () => {
    if (!rows.length) return;
    await pool.query(
      `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, usage_bytes, usage_messages,
         password_hash, mail_password_hash)
       SELECT d, n, e, de, k, c, u, u / 50000, $8, $9
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[]) AS t(d, n, e, de, k, c, u)`,
      [
        rows.map((r) => r.d),
        rows.map((r) => r.n),
        rows.map((r) => r.e),
        rows.map((r) => r.de),
        rows.map((r) => r.k),
        rows.map((r) => r.c),
        rows.map((r) => r.u),
        hash,
        mailHash,
      ],
    );
    accounts += rows.length;
    rows = [];
  };
  const sample: string[] = [];
  for (const d of domains) {
    const id = idOf.get(d.name)!;
    for (let j = 0; j < d.accounts; j++) {
      const n = j === 0 ? "postmaster" : `${pick(FIRST)}.${pick(LAST)}${j}`;
      const de = `${pick(FIRST)} ${pick(LAST)}`;
      rows.push({ d: id, n, e: `${n}@${d.name}`, de, k: searchKey(n, de), c: int(100, 5000), u: int(0, 50_000_000) });
      if (random() < 0.002) sample.push(`${n}@${d.name}`);
      if (rows.length === 10_000) await flush();
    }
  }
  await flush();
  const big = idOf.get(domains[0]!.name)!;
  for (let i = 0; i < sizes.aliases; i += 10_000) {
    const names = Array.from({ length: Math.min(10_000, sizes.aliases - i) }, (_, k) => `alias-${i + k}`);
    const targets = names.map(() => pick(sample));
    await pool.query(
      `INSERT INTO aliases (domain_id, name, email, target, search_key)
       SELECT $1, n, n || '@' || $2, t, k FROM unnest($3::text[], $4::text[], $5::text[]) AS x(n, t, k)`,
      [big, domains[0]!.name, names, targets, names.map((n, k) => searchKey(n, targets[k]!))],
    );
  }
  const listNames = Array.from({ length: sizes.lists }, (_, i) => `lista-${i}`);
  const listDomains = listNames.map((_, i) => ids[i % ids.length]!);
  await pool.query(
    `INSERT INTO mailing_lists (domain_id, name, email, description, search_key, subscribe_request_mail_body,
       subscribe_request_mail_subject, unsubscribe_request_mail_body, unsubscribe_request_mail_subject, subscribe_mail_body,
       subscribe_mail_subject, unsubscribe_mail_body, unsubscribe_mail_subject)
     SELECT d, n, n || '@' || dn, 'Lista', n, $4, $5, $6, $7, $8, $9, $10, $11
     FROM unnest($1::int[], $2::text[], $3::text[]) AS x(d, n, dn)`,
    [listDomains.map((d) => d.id), listNames, listDomains.map((d) => d.name), ...TEMPLATE_VALUES],
  );
  const seeding = ms(t0);
  await pool.query("VACUUM (ANALYZE)");
  await pool.end();
  return { seedingSeconds: seeding / 1000, withVacuumSeconds: ms(t0) / 1000, accounts, sample };
}
