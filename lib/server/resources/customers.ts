import "server-only";
// Customers (docs/customers.md): a customer owns one or more domains. It is the boundary between domains: catchall
// types 2 and 3 may name only domains of the same customer. A limit set on the customer is pooled: each of its
// domains answers the pool's limit and the usage summed over all of them, and creating beyond the pool is refused
// as a domain's limit is; a limit left unset (NULL) stays per domain.
import type { EffectiveLimits } from "@/lib/schemas/domain";
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { containsPattern } from "@/db/like";
import { customers, domains, type CustomerRow, type DomainRow } from "@/db/schema";
import { withTransaction } from "@/db/transaction";
import { prepared } from "../store/prepared";

export interface CustomerLimits {
  accountLimit?: number | null;
  aliasLimit?: number | null;
  mailinglistLimit?: number | null;
  capacityLimit?: number | null;
}

export type { EffectiveLimits };

const statements = prepared((db) => ({
  byId: db
    .select()
    .from(customers)
    .where(eq(customers.id, sql.placeholder("id")))
    .prepare(),
  domainById: db
    .select()
    .from(domains)
    .where(eq(domains.id, sql.placeholder("id")))
    .prepare(),
  pool: db
    .select({
      accountCount: sql<number>`coalesce(sum(${domains.accountCount}), 0)`,
      aliasCount: sql<number>`coalesce(sum(${domains.aliasCount}), 0)`,
      mailinglistCount: sql<number>`coalesce(sum(${domains.mailinglistCount}), 0)`,
      capacitySum: sql<number>`coalesce(sum(${domains.capacitySum}), 0)`,
    })
    .from(domains)
    .where(eq(domains.customerId, sql.placeholder("customerId")))
    .prepare(),
}));

export const findCustomer = async (db: Db, id: number): Promise<CustomerRow | undefined> =>
  (await statements(db).byId.execute({ id }))[0];

export async function getCustomerOrThrow(db: Db, id: number): Promise<CustomerRow> {
  const row = Number.isSafeInteger(id) ? await findCustomer(db, id) : undefined;
  if (!row) throw new Error(`no customer with id ${id}`);
  return row;
}

export const isPooled = (c: CustomerRow) =>
  c.accountLimit !== null || c.aliasLimit !== null || c.mailinglistLimit !== null || c.capacityLimit !== null;

/** Limits and usage of a domain as they bind now (read fresh: call inside the write's transaction). */
export async function effectiveLimits(db: Db, domain: Pick<DomainRow, "id">): Promise<EffectiveLimits> {
  const s = statements(db);
  const d = (await s.domainById.execute({ id: domain.id }))[0]!;
  const c = d.customerId === null ? undefined : (await s.byId.execute({ id: d.customerId }))[0];
  const pool = c && isPooled(c) ? (await s.pool.execute({ customerId: c.id }))[0] : undefined;
  return limitsInForce(d, c, pool);
}

type PoolUsage = Pick<EffectiveLimits, "accountCount" | "aliasCount" | "mailinglistCount" | "capacitySum">;

/** The domain's own limits and usage, with each limit its customer pools replaced by the pool's limit and usage. */
function limitsInForce(d: DomainRow, customer: CustomerRow | undefined, pool: PoolUsage | undefined): EffectiveLimits {
  const out: EffectiveLimits = {
    accountLimit: d.accountLimit,
    aliasLimit: d.aliasLimit,
    mailinglistLimit: d.mailinglistLimit,
    capacityLimit: d.capacityLimit,
    accountCount: d.accountCount,
    aliasCount: d.aliasCount,
    mailinglistCount: d.mailinglistCount,
    capacitySum: d.capacitySum,
  };
  for (const k of pooledLimits(customer)) {
    out[k] = customer![k]!;
    // PostgreSQL's sum() of bigint comes back as a string.
    out[USAGE_OF[k]] = Number(pool![USAGE_OF[k]]);
  }
  return out;
}

/** The four limits a customer may pool, by their names in the rows. */
export const POOLABLE_LIMITS = ["accountLimit", "aliasLimit", "mailinglistLimit", "capacityLimit"] as const;
export type PoolableLimit = (typeof POOLABLE_LIMITS)[number];

const USAGE_OF = {
  accountLimit: "accountCount",
  aliasLimit: "aliasCount",
  mailinglistLimit: "mailinglistCount",
  capacityLimit: "capacitySum",
} as const satisfies Record<PoolableLimit, keyof EffectiveLimits>;

/** The limits of `customer` that are pooled (set on the customer), in POOLABLE_LIMITS' order. */
export const pooledLimits = (customer: CustomerRow | undefined): PoolableLimit[] =>
  customer ? POOLABLE_LIMITS.filter((k) => customer[k] !== null) : [];

/**
 * `rows` (domains) with the limits and usage in force, as effectiveLimits gives them for one, and which of them are
 * the customer's pool: two queries for any number of domains, for `domain list`.
 */
export async function domainsWithLimitsInForce(
  db: Db,
  rows: DomainRow[],
): Promise<(DomainRow & { inForce: EffectiveLimits; pooled: PoolableLimit[] })[]> {
  const byId = new Map((await db.select().from(customers)).map((c) => [c.id, c]));
  const sums = await db
    .select({
      customerId: domains.customerId,
      accountCount: sql<number>`coalesce(sum(${domains.accountCount}), 0)`,
      aliasCount: sql<number>`coalesce(sum(${domains.aliasCount}), 0)`,
      mailinglistCount: sql<number>`coalesce(sum(${domains.mailinglistCount}), 0)`,
      capacitySum: sql<number>`coalesce(sum(${domains.capacitySum}), 0)`,
    })
    .from(domains)
    .groupBy(domains.customerId);
  const poolOf = new Map(sums.map((s) => [s.customerId, s]));
  return rows.map((d) => {
    const customer = d.customerId === null ? undefined : byId.get(d.customerId);
    const inForce = limitsInForce(d, customer, poolOf.get(d.customerId));
    return { ...d, inForce, pooled: pooledLimits(customer) };
  });
}

/** True when both domains belong to the same customer. */
export const sameCustomer = (a: Pick<DomainRow, "customerId">, b: Pick<DomainRow, "customerId">) =>
  a.customerId !== null && a.customerId === b.customerId;

// --- operator side (CLI) ---

export async function createCustomer(db: Db, name: string): Promise<CustomerRow> {
  return (await db.insert(customers).values({ name }).returning())[0]!;
}

export interface CustomerFilter {
  /** Only the customers whose name, or the name of one of whose domains, contains this text, in any case. */
  search?: string;
}

/**
 * The customers by id, each with its domains by name; or those `filter` selects, in SQL (a provider has 10,000). The
 * search puts both sides through the engine's lower(): ASCII letters match in any case on both engines, and a name
 * matches text written as it is stored; other letters' case is folded where the engine's lower() folds them
 * (PostgreSQL in a UTF-8 locale, not SQLite).
 */
export async function listCustomers(
  db: Db,
  filter: CustomerFilter = {},
): Promise<(CustomerRow & { domains: string[] })[]> {
  const search = (filter.search ?? "").trim();
  const pattern = containsPattern(search);
  const matches = search
    ? sql`(lower(${customers.name}) LIKE lower(${pattern}) ESCAPE '\\' OR EXISTS (SELECT 1 FROM ${domains} WHERE ${domains.customerId} = ${customers.id} AND ${domains.name} LIKE lower(${pattern}) ESCAPE '\\'))`
    : undefined;
  const all = await db.select().from(customers).where(matches).orderBy(asc(customers.id));
  const owned = await db
    .select({ name: domains.name, customerId: domains.customerId })
    .from(domains)
    .where(
      matches ? inArray(domains.customerId, db.select({ id: customers.id }).from(customers).where(matches)) : undefined,
    )
    .orderBy(domains.name);
  const byCustomer = new Map<number | null, string[]>();
  for (const d of owned) {
    const names = byCustomer.get(d.customerId);
    if (names) names.push(d.name);
    else byCustomer.set(d.customerId, [d.name]);
  }
  return all.map((c) => ({ ...c, domains: byCustomer.get(c.id) ?? [] }));
}

/** Sets the given pooled limits; `null` returns a limit to per-domain. */
export async function setCustomerLimits(db: Db, customer: CustomerRow, limits: CustomerLimits): Promise<CustomerRow> {
  if (Object.keys(limits).length === 0) return customer;
  return withTransaction(
    db,
    async (tx) => (await tx.update(customers).set(limits).where(eq(customers.id, customer.id)).returning())[0]!,
  );
}

/** What a customer's name may be: what the operator knows it by (a company, a contract number), one line. */
export function customerName(text: string): string {
  const name = text.trim();
  // No control characters: the name is printed in tab-separated lines (`customer list`).
  if (name.length === 0 || name.length > 200 || /\p{Cc}/u.test(name))
    throw new Error("a customer's name must be 1 to 200 characters on one line, without tabs or control characters");
  return name;
}

export async function renameCustomer(db: Db, customer: CustomerRow, name: string): Promise<CustomerRow> {
  const checked = customerName(name);
  return withTransaction(
    db,
    async (tx) =>
      (await tx.update(customers).set({ name: checked }).where(eq(customers.id, customer.id)).returning())[0]!,
  );
}

/** What `customer show` prints: the customer, its pool (when pooled) and each domain with its usage. */
export async function customerReport(db: Db, customer: CustomerRow) {
  const owned = await db.select().from(domains).where(eq(domains.customerId, customer.id)).orderBy(domains.name);
  const pool = (await statements(db).pool.execute({ customerId: customer.id }))[0]!;
  const limit = (v: number | null) => (v === null ? "per domain" : v);
  return {
    id: customer.id,
    name: customer.name,
    created_at: customer.createdAt,
    pooled: isPooled(customer),
    limits: {
      account_limit: limit(customer.accountLimit),
      alias_limit: limit(customer.aliasLimit),
      mailinglist_limit: limit(customer.mailinglistLimit),
      capacity_limit: limit(customer.capacityLimit),
    },
    usage: {
      accounts: pool.accountCount,
      aliases: pool.aliasCount,
      mailinglists: pool.mailinglistCount,
      capacity: pool.capacitySum,
    },
    domains: owned.map((d) => ({
      name: d.name,
      accounts: d.accountCount,
      aliases: d.aliasCount,
      mailinglists: d.mailinglistCount,
      capacity: d.capacitySum,
    })),
  };
}
