import "server-only";
// Mail domains: reading and changing their settings (v1 API) and the operator's side (CLI): add, limits, remove.
import { and, asc, eq, inArray, isNull, like, ne, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { containsPattern } from "@/db/like";
import { accounts, domains, type CustomerRow, type DomainRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { recordRemovedMailboxes } from "@/lib/mailserver/removed-mailboxes";
import { isDomainName, isEmail, isHostedDomainName } from "@/lib/schemas/common";
import {
  domainFields,
  READ_ONLY_DOMAIN_FIELDS,
  toDomainRecord as recordOf,
  type DomainRecord,
  type DomainUpdate,
} from "@/lib/schemas/domain";
import { parseFields } from "@/lib/schemas/fields";
import { fieldChanges, recordChange } from "./audit";
import { removeForwardsToDomain } from "./account-forwards";
import { UntilChangedCache } from "../store/db-generation";
import {
  createCustomer,
  effectiveLimits,
  findCustomer,
  getCustomerOrThrow,
  pooledLimits,
  sameCustomer,
} from "./customers";
import { env } from "../env";
import { lockCatchallTargets, lockDomain, withTransaction } from "@/db/transaction";
import { prepared } from "../store/prepared";

const statements = prepared((db) => ({
  byName: db
    .select()
    .from(domains)
    .where(eq(domains.name, sql.placeholder("name")))
    .prepare(),
  accountByEmail: db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, sql.placeholder("email")))
    .prepare(),
}));

// Nearly every request names a domain in its path; its row is reused while the database is unchanged.
const domainsByName = new UntilChangedCache<Readonly<DomainRow>>(1000);

export function findDomain(db: Db, name: string): Promise<Readonly<DomainRow> | undefined> {
  return domainsByName.get(db, name, async () => {
    const [row] = await statements(db).byName.execute({ name });
    return row && Object.freeze(row);
  });
}

/** The domain named in a path: 500.363 when the name is malformed, 404.1 when it is not served here. */
export async function getDomainOrThrow(db: Db, name: string): Promise<Readonly<DomainRow>> {
  if (!isDomainName(name)) throw apiError("invalidDomainName", "domain");
  const row = await findDomain(db, name);
  if (!row) throw apiError("domainNotFound", "domain");
  return row;
}

/**
 * The domain's record. Limits and usage are those that bind: a customer's pooled limit and the usage summed over
 * the customer's domains (lib/server/resources/customers.ts), or the domain's own.
 */
export async function toDomainRecord(db: Db, d: DomainRow): Promise<DomainRecord> {
  const e = env();
  const defaults = { rbl: e.SPAM_RBL_DEFAULT, spf: e.SPAM_SPF_DEFAULT, greylist: e.SPAM_GREYLIST_DEFAULT };
  return recordOf(d, { limits: await effectiveLimits(db, d), defaults });
}
export type { DomainRecord };

/**
 * Checks the catchall address against its type (500.362). Types 2 and 3 name another domain of the SAME customer
 * (docs/customers.md): any other address, hosted or not, existing or not, gets the same 500.362, so a domain's
 * administrator learns nothing about what exists outside the customer (contract §9).
 */
async function checkCatchall(db: Db, domain: DomainRow, type: number, address: string): Promise<void> {
  const at = address.lastIndexOf("@");
  const addressDomain = address.slice(at + 1);
  const accountExists = async () => (await statements(db).accountByEmail.execute({ email: address })).length > 0;
  const ownCustomers = async (name: string) => {
    const other = await findDomain(db, name);
    return !!other && sameCustomer(other, domain);
  };
  const valid =
    type === 0
      ? address === ""
      : type === 1
        ? isEmail(address) && addressDomain === domain.name && (await accountExists())
        : type === 2
          ? isEmail(address) &&
            addressDomain !== domain.name &&
            (await ownCustomers(addressDomain)) &&
            (await accountExists())
          : isDomainName(address) && address !== domain.name && (await ownCustomers(address));
  if (!valid && type === 1 && isEmail(address) && addressDomain === domain.name) {
    throw apiError("catchallAccountMissing", "catchall_address", { catchall_type: type, address });
  }
  if (!valid) throw apiError("invalidCatchallAddress", "catchall_address", { catchall_type: type });
}

/** PUT domains/<domain>: validates the body and applies it. */
export async function updateDomain(db: Db, domain: DomainRow, body: Record<string, unknown>): Promise<DomainRow> {
  const input: DomainUpdate = parseFields(body, domainFields, READ_ONLY_DOMAIN_FIELDS);
  const type = input.catchall_type ?? domain.catchallType;
  // Switching to "no catchall" without naming an address clears the old one.
  const address = input.catchall_address ?? (type === 0 ? "" : domain.catchallAddress);
  // Only a changed catchall is checked: one stored earlier may name an account deleted since in another domain of the
  // customer (kept there, contract §9), and the record sent back whole with another change must still be accepted.
  const catchallChanges = type !== domain.catchallType || address !== domain.catchallAddress;
  const camel = (f: string) => f.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  const full: Record<string, unknown> = { ...input, catchall_type: type, catchall_address: address };
  const old = Object.fromEntries(Object.keys(full).map((f) => [f, (domain as Record<string, unknown>)[camel(f)]]));
  return withTransaction(db, async (tx) => {
    // The catchall's account must exist when the change commits: checked under the domain's lock. One into another
    // domain is set under the lock a removal of that domain takes first (db/transaction.ts).
    if (catchallChanges && type >= 2) await lockCatchallTargets(tx);
    await lockDomain(tx, domain.id);
    if (catchallChanges) await checkCatchall(tx, domain, type, address);
    await recordChange(tx, {
      domain: domain.name,
      action: "update",
      resource: "domain",
      names: [domain.name],
      changes: fieldChanges(full, [old]),
    });
    return updateDomainRow(tx, domain, input, type, address);
  });
}

async function updateDomainRow(
  db: Db,
  domain: DomainRow,
  input: DomainUpdate,
  type: number,
  address: string,
): Promise<DomainRow> {
  const [row] = await db
    .update(domains)
    .set({
      catchallType: type,
      catchallAddress: address,
      spamEnabled: input.spam_enabled,
      spamWhiteList: input.spam_white_list,
      spamBlackList: input.spam_black_list,
      spamGreylistWhitelist: input.spam_greylist_whitelist,
      spamSpfWhitelist: input.spam_spf_whitelist,
      spamRblWhitelist: input.spam_rbl_whitelist,
      spamRblEnabled: input.spam_rbl_enabled,
      spamSpfEnabled: input.spam_spf_enabled,
      spamGreylistEnabled: input.spam_greylist_enabled,
    })
    .where(eq(domains.id, domain.id))
    .returning();
  return row!;
}

// --- operator side (CLI) ---

export interface DomainLimits {
  accountLimit?: number;
  aliasLimit?: number;
  mailinglistLimit?: number;
  capacityLimit?: number;
  /** Recipients per rolling hour for each signed-in account (0: none): enforced by the policy service, not in the API. */
  sendLimit?: number;
}

/** The limits as the domain record names them, so the audit log shows them as the API and the panel do. */
const LIMIT_FIELDS = {
  accountLimit: "account_limit",
  aliasLimit: "alias_limit",
  mailinglistLimit: "mailinglist_limit",
  capacityLimit: "capacity_limit",
  sendLimit: "send_limit",
} as const satisfies Record<keyof DomainLimits, string>;
const asRecordFields = (limits: DomainLimits): Record<string, number | undefined> =>
  Object.fromEntries(Object.entries(limits).map(([k, v]) => [LIMIT_FIELDS[k as keyof DomainLimits], v as number]));

export interface DomainFilter {
  /** Only the domains placed on this mail host; `null`: those placed on none. */
  mailHost?: string | null;
  /** Only the domains whose name contains this text. */
  search?: string;
}

/** The hosted domains by name, or those `filter` selects (in SQL: a provider has thousands). */
export function listDomains(db: Db, filter: DomainFilter = {}): Promise<DomainRow[]> {
  const search = (filter.search ?? "").trim().toLowerCase();
  const pattern = containsPattern(search);
  const where = and(
    filter.mailHost === undefined
      ? undefined
      : filter.mailHost === null
        ? isNull(domains.mailHost)
        : eq(domains.mailHost, filter.mailHost),
    search ? sql`${domains.name} LIKE ${pattern} ESCAPE '\\'` : undefined,
  );
  return db.select().from(domains).where(where).orderBy(domains.name).execute();
}

/** A new domain of `customerId`'s customer, or of a new customer of its own named after the domain. */
export async function insertDomain(
  db: Db,
  name: string,
  limits: DomainLimits,
  customerId?: number,
): Promise<DomainRow> {
  if (!isHostedDomainName(name)) throw apiError("invalidDomainName", "domain");
  return withTransaction(db, async (tx) => {
    if ((await statements(tx).byName.execute({ name })).length)
      throw apiError("domainTaken", "domain", { domain: name });
    let customer: number;
    if (customerId === undefined) customer = (await createCustomer(tx, name)).id;
    else {
      const row = await getCustomerOrThrow(tx, customerId);
      refusePooled(name, row, limits, true);
      customer = row.id;
    }
    await recordChange(tx, {
      domain: name,
      action: "create",
      resource: "domain",
      names: [name],
      changes: fieldChanges(asRecordFields(limits), null),
    });
    return (
      await tx
        .insert(domains)
        .values({ name, ...limits, customerId: customer })
        .returning()
    )[0]!;
  });
}

/** The CLI options of the limits a customer may pool (`customer set-limits` takes the same names). */
const LIMIT_OPTION = {
  accountLimit: "--account-limit N",
  aliasLimit: "--alias-limit N",
  mailinglistLimit: "--mailinglist-limit N",
  capacityLimit: "--capacity-limit MB",
} as const;

/**
 * An own limit of a domain that its customer pools, refused: the domain's own figure does not bind while the pool does
 * (docs/customers.md), so setting it would change nothing in force. The message names the limits as flags (`domain
 * add`, `domain set-limits`); `forFileLine` words it for a line of `domain import` or `set-limits --file`.
 */
export class PooledLimitError extends Error {
  constructor(
    readonly domain: string,
    readonly customerId: number,
    readonly limits: (keyof typeof LIMIT_OPTION)[],
    /** The domain was being added (nothing was added), not changed. */
    readonly adding: boolean,
  ) {
    super(`${domain}: ${PooledLimitError.text(customerId, limits, adding, (o) => o)}`);
  }

  /** The refusal for a file's line, which names its domain already: `capacity-limit=` as the line spells it. */
  forFileLine(): string {
    return PooledLimitError.text(this.customerId, this.limits, this.adding, (o) => `${o.slice(2)}=`);
  }

  private static text(
    customerId: number,
    limits: (keyof typeof LIMIT_OPTION)[],
    adding: boolean,
    spell: (flag: string) => string,
  ): string {
    const options = limits.map((k) => LIMIT_OPTION[k]);
    const names = options.map((o) => spell(o.split(" ")[0]!)).join(", ");
    const many = limits.length > 1;
    return (
      `${names} ${many ? "are" : "is"} pooled over customer ${customerId}'s domains; ` +
      `set ${many ? "them" : "it"} with \`customer set-limits ${customerId} ${options.join(" ")}\` ` +
      `(or \`none\` to give each domain its own again); nothing was ${adding ? "added" : "changed"}`
    );
  }
}

/** Refuses an own limit of `domain` that its customer pools (PooledLimitError). */
function refusePooled(domain: string, customer: CustomerRow | undefined, limits: DomainLimits, adding: boolean): void {
  const pooled = pooledLimits(customer).filter((k) => limits[k] !== undefined);
  if (pooled.length) throw new PooledLimitError(domain, customer!.id, pooled, adding);
}

/** Sets the domain's own limits; one its customer pools is refused, with nothing written (refusePooled). */
export async function setDomainLimits(db: Db, domain: DomainRow, limits: DomainLimits): Promise<DomainRow> {
  if (Object.keys(limits).length === 0) return domain;
  const old = Object.fromEntries(Object.keys(limits).map((k) => [k, (domain as Record<string, unknown>)[k]]));
  return withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    refusePooled(
      domain.name,
      domain.customerId === null ? undefined : await findCustomer(tx, domain.customerId),
      limits,
      false,
    );
    await recordChange(tx, {
      domain: domain.name,
      action: "update",
      resource: "domain",
      names: [domain.name],
      changes: fieldChanges(asRecordFields(limits), [asRecordFields(old)]),
    });
    return (await tx.update(domains).set(limits).where(eq(domains.id, domain.id)).returning())[0]!;
  });
}

/** Accounts a domain removal deletes per transaction before its last one (0.3-1.4 s of SQLite's write lock for 100,000). */
const ACCOUNTS_PER_REMOVAL = 2_000;

/**
 * `domain remove`: the domain with everything in it, and what other domains had pointing into it, the way deleting
 * an account treats what pointed at the account (docs/customers.md, "Removing a domain"): their catchalls of type
 * 2 or 3 into it are switched off, and its accounts leave the forwards of the customer's other accounts. Aliases of
 * other domains keep their targets (contract §9), like mail to any address outside the domain.
 */
export async function removeDomain(
  db: Db,
  domain: DomainRow,
  batch = ACCOUNTS_PER_REMOVAL,
): Promise<{ catchallsOff: string[] }> {
  // A big domain's accounts go first, `batch` per transaction, its postmaster last. In one transaction the 100,000
  // accounts of a domain held SQLite's write lock for 19 s, and other processes' writes (the API's, Dovecot's usage,
  // the mail events' logins) failed after their 5 s busy timeout. Meanwhile mail to the deleted ones is refused as
  // unknown; a removal interrupted here is finished by running it again.
  for (;;) {
    const ids = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.domainId, domain.id), ne(accounts.name, "postmaster")))
      .orderBy(asc(accounts.id))
      .limit(batch);
    if (ids.length < batch) break;
    await withTransaction(db, async (tx) => {
      await lockDomain(tx, domain.id);
      const these = inArray(
        accounts.id,
        ids.map((r) => r.id),
      );
      await recordRemovedMailboxes(tx, these);
      await tx.delete(accounts).where(these);
    });
  }
  return withTransaction(db, async (tx) => {
    await lockCatchallTargets(tx);
    await lockDomain(tx, domain.id);
    const catchallsOff = await switchOffCatchallsInto(tx, domain);
    await removeForwardsToDomain(tx, domain);
    await recordChange(tx, { domain: domain.name, action: "delete", resource: "domain", names: [domain.name] });
    await recordRemovedMailboxes(tx, eq(accounts.domainId, domain.id));
    await tx.delete(domains).where(eq(domains.id, domain.id));
    return { catchallsOff };
  });
}

/**
 * Other domains' catchalls that deliver into `domain` (type 3 naming it, type 2 naming an address in it), switched
 * off and audited as their domain's change: left in place they would send mail to whoever hosts the name next, and
 * their record could not be saved back (500.362).
 */
async function switchOffCatchallsInto(tx: Db, domain: DomainRow): Promise<string[]> {
  const pointing = await tx
    .select({ id: domains.id, name: domains.name, type: domains.catchallType, address: domains.catchallAddress })
    .from(domains)
    .where(
      and(
        ne(domains.id, domain.id),
        or(
          and(eq(domains.catchallType, 3), eq(domains.catchallAddress, domain.name)),
          and(eq(domains.catchallType, 2), like(domains.catchallAddress, `%@${domain.name}`)),
        ),
      ),
    )
    .orderBy(domains.id);
  const off: string[] = [];
  for (const d of pointing) {
    if (d.type === 2 && !d.address.endsWith(`@${domain.name}`)) continue;
    off.push(d.name);
    await lockDomain(tx, d.id);
    await tx.update(domains).set({ catchallType: 0, catchallAddress: "" }).where(eq(domains.id, d.id));
    await recordChange(tx, {
      domain: d.name,
      action: "update",
      resource: "domain",
      names: [d.name],
      changes: { catchall_type: { old: d.type, new: 0 }, catchall_address: { old: d.address, new: "" } },
    });
  }
  return off;
}
