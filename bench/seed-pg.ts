// Seeds a fresh benchmark database: one big domain, one mid-size domain, many small ones, aliases and mailing
// lists with members. Rows go in through prepared statements, in batches of one transaction each.
//
// Synthetic accounts share ONE password hash: scrypt (at the production cost) is derived once per distinct
// password and reused, because paying ~50 ms of scrypt 100,000 times would make seeding take over an hour and
// measure nothing about the service. Only the postmasters' password is used to log in.
import { openPostgres } from "@/db/pg/client";
import { searchKey } from "@/lib/server/resources/page";
import { ACCOUNTS, BIG_DOMAIN, plan, seedResult, TEMPLATE_VALUES, type SeedResult, type SeedSizes } from "./seed-plan";

/**
 * One statement inserting a batch of accounts from one array per column (`INSERT ... SELECT FROM unnest(...)`), in
 * ACCOUNTS.columns' order.
 */
const INSERT_ACCOUNTS = (() => {
  const columns = Object.keys(ACCOUNTS.columns);
  const types = Object.values(ACCOUNTS.columns);
  const as = columns.map((_, j) => `c${j}`);
  const selected = as.map((c, j) => (types[j] === "jsonb" ? `${c}::jsonb` : c));
  const arrays = types.map((t, j) => `$${j + 1}::${t === "jsonb" ? "text" : t}[]`);
  return `INSERT INTO accounts (${columns.join(", ")})
    SELECT ${selected.join(", ")} FROM unnest(${arrays.join(", ")}) AS t(${as.join(", ")})`;
})();

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
      const values = rows.map((a) => ACCOUNTS.values(a, domainIds.get(a.domain)!));
      await q(
        INSERT_ACCOUNTS,
        Object.keys(ACCOUNTS.columns).map((_, j) => values.map((v) => v[j])),
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
        ...TEMPLATE_VALUES,
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
    return seedResult(url, started, p);
  } finally {
    await pool.end();
  }
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
