import "server-only";
// Mailbox hosts (docs/mail-hosts.md): the operator names each mail host and where the others reach it (mail_hosts),
// and places each domain, or an account against its domain, on one of them. The generated configuration proxies
// IMAP, POP3, LMTP and ManageSieve of other hosts' mailboxes to them and hands their mail to their LMTP; the jobs
// that touch a mailbox (housekeeping, usage warnings, SMS) run only on the host it lives on. Only the operator's CLI
// writes these: the API and the panel have no field for them.
import { and, asc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, domains, mailHosts } from "@/db/schema";
import { withTransaction } from "@/db/transaction";
import { mailHostName } from "@/lib/config.mjs";
import { MAIL_HOST_NAME } from "./config";

export interface MailHost {
  name: string;
  address: string;
  imapPort: number;
  pop3Port: number;
  lmtpPort: number;
  sievePort: number;
}

export const MAIL_HOST_PORTS = { imapPort: 143, pop3Port: 110, lmtpPort: 24, sievePort: 4190 } as const;

/** An address Dovecot's host= field and Postfix's lmtp:inet: both take: a host name or an IPv4 address. */
const ADDRESS = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/i;

export function checkHostName(name: string): string {
  if (!MAIL_HOST_NAME.test(name))
    throw new Error(`mail host name '${name}': lowercase letters, digits, dots and dashes (up to 64)`);
  return name;
}

/** This host's name: MAIL_HOST_NAME, or undefined on a single mail host (every mailbox is served here). */
export function localMailHost(): string | undefined {
  const name = mailHostName();
  return name ? checkHostName(name) : undefined;
}

/**
 * The name a host runs under (`mailserver config --host-name`, else MAIL_HOST_NAME), checked against mail_hosts: one
 * rule for every command that takes it (config, housekeeping, events, sandbox). A name with no row is refused with
 * `domain set-mail-host`'s message: under a misspelt name every placed mailbox, this host's own too, would look like
 * another host's, so its Dovecot would proxy them away, and housekeeping, the SMS worker and the session checks
 * would leave them alone (housekeeping said "nothing to do"). undefined: one mail host, every mailbox served here.
 */
export async function checkedMailHost(db: Db, name: string | undefined): Promise<string | undefined> {
  if (name === undefined) return undefined;
  await checkHostExists(db, checkHostName(name));
  return name;
}

/** Adds a host or changes its address and ports (unset ports keep their value, or take the protocols' defaults). */
export async function setMailHost(
  db: Db,
  name: string,
  o: { address?: string } & Partial<Omit<MailHost, "name" | "address">>,
): Promise<MailHost> {
  checkHostName(name);
  if (o.address !== undefined && !ADDRESS.test(o.address))
    throw new Error(`--address ${o.address}: a host name or an IPv4 address`);
  for (const [k, v] of Object.entries(o)) {
    if (k !== "address" && v !== undefined && !(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535))
      throw new Error(`${k}: a port from 1 to 65535`);
  }
  return withTransaction(db, async (tx) => {
    const [old] = await tx.select().from(mailHosts).where(eq(mailHosts.name, name));
    const address = o.address ?? old?.address;
    if (!address) throw new Error(`mail host ${name} is new: give its --address`);
    const row = {
      ...MAIL_HOST_PORTS,
      ...old,
      ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)),
      name,
      address,
    } as MailHost;
    if (old) await tx.update(mailHosts).set(row).where(eq(mailHosts.name, name));
    else await tx.insert(mailHosts).values(row);
    return row;
  });
}

/** The hosts with the number of domains and of overriding accounts placed on each. */
export async function listMailHosts(db: Db): Promise<(MailHost & { domains: number; accounts: number })[]> {
  const rows = await db.select().from(mailHosts).orderBy(asc(mailHosts.name));
  const n = sql<number>`count(*)`;
  return Promise.all(
    rows.map(async (h) => ({
      ...h,
      domains: Number((await db.select({ n }).from(domains).where(eq(domains.mailHost, h.name)))[0]?.n ?? 0),
      accounts: Number((await db.select({ n }).from(accounts).where(eq(accounts.mailHost, h.name)))[0]?.n ?? 0),
    })),
  );
}

/** Removes a host no domain or account is placed on. */
export async function removeMailHost(db: Db, name: string): Promise<void> {
  await withTransaction(db, async (tx) => {
    const used = await tx.select({ name: domains.name }).from(domains).where(eq(domains.mailHost, name)).limit(1);
    const usedBy = await tx
      .select({ email: accounts.email })
      .from(accounts)
      .where(eq(accounts.mailHost, name))
      .limit(1);
    if (used.length || usedBy.length)
      throw new Error(`mail host ${name} still holds ${used[0]?.name ?? usedBy[0]?.email}: move it first`);
    const gone = await tx.delete(mailHosts).where(eq(mailHosts.name, name)).returning({ name: mailHosts.name });
    if (!gone.length) throw new Error(`no mail host ${name}`);
  });
}

/** Throws, naming the command that adds it, unless the host exists (`null`, no host, always does). */
export async function checkHostExists(tx: Db, host: string | null): Promise<void> {
  if (host === null) return;
  const [row] = await tx.select({ name: mailHosts.name }).from(mailHosts).where(eq(mailHosts.name, host));
  if (!row) throw new Error(`no mail host ${host} (add it: mailserver host set ${host} --address <address>)`);
}

/**
 * Where a new domain's mailboxes go, checked in the transaction that adds it (so that an import running while the
 * first host is set up refuses the lines after it): the host `chosen` names (which must exist), none for `null`, and
 * when nothing was chosen none only while no mail host is set up. With hosts, a domain on none has its mail stored by
 * whichever MX takes it, each keeping a copy that later hides the others and blocks the domain's move
 * (docs/mail-hosts.md), so the operator has to choose, and none is a choice made on purpose.
 */
export async function newDomainMailHost(tx: Db, chosen: string | null | undefined): Promise<string | null> {
  if (chosen !== undefined) {
    await checkHostExists(tx, chosen);
    return chosen;
  }
  const hosts = await tx.select({ name: mailHosts.name }).from(mailHosts).orderBy(asc(mailHosts.name)).limit(4);
  if (!hosts.length) return null;
  const named =
    hosts
      .slice(0, 3)
      .map((h) => h.name)
      .join(", ") + (hosts.length > 3 ? ", ..." : "");
  throw new Error(
    `mail hosts are set up (${named}): place the new domain with --mail-host <name>, or give --mail-host none to ` +
      "leave it on no host on purpose (docs/mail-hosts.md)",
  );
}

/** --mail-host as the commands that create domains take it: a host's name, none (null), or not given. */
export function mailHostChoice(given: string | undefined): string | null | undefined {
  return given === "none" ? null : given;
}

/** Places a domain's mailboxes on a host (null: on none, every host serves them itself). */
export async function setDomainMailHost(db: Db, domainId: number, host: string | null): Promise<void> {
  await withTransaction(db, async (tx) => {
    await checkHostExists(tx, host);
    await tx.update(domains).set({ mailHost: host }).where(eq(domains.id, domainId));
  });
}

/**
 * Places many domains on a host in one transaction (a provider's first placement of thousands of domains): every
 * name must be hosted, else nothing changes and the error names the missing ones. Gives the number placed.
 */
export async function setDomainsMailHost(db: Db, names: string[], host: string | null): Promise<number> {
  const wanted = [...new Set(names.map((n) => n.toLowerCase()))];
  return withTransaction(db, async (tx) => {
    await checkHostExists(tx, host);
    const found = new Set<string>();
    // In slices: SQLite takes at most 32,766 bound values in a statement, PostgreSQL 65,535.
    for (let i = 0; i < wanted.length; i += 1000) {
      const slice = wanted.slice(i, i + 1000);
      const done = await tx
        .update(domains)
        .set({ mailHost: host })
        .where(inArray(domains.name, slice))
        .returning({ name: domains.name });
      for (const r of done) found.add(r.name);
    }
    const missing = wanted.filter((n) => !found.has(n));
    if (missing.length)
      throw new Error(`${missing.length} of ${wanted.length} domains not hosted, none placed: ${shownNames(missing)}`);
    return found.size;
  });
}

/** Places one account on a host against its domain's (null: the domain's host again). */
export async function setAccountMailHost(db: Db, email: string, host: string | null): Promise<void> {
  await withTransaction(db, async (tx) => {
    await checkHostExists(tx, host);
    const done = await tx
      .update(accounts)
      .set({ mailHost: host })
      .where(eq(accounts.email, email.toLowerCase()))
      .returning({ id: accounts.id });
    if (!done.length) throw new Error(`no account ${email}`);
  });
}

/**
 * Places many accounts on a host against their domains' (null: their domains' hosts again) in one transaction, as
 * setDomainsMailHost places domains: every address must be an account, else nothing changes and the error names the
 * missing ones. Gives the number placed.
 */
export async function setAccountsMailHost(db: Db, emails: string[], host: string | null): Promise<number> {
  const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
  return withTransaction(db, async (tx) => {
    await checkHostExists(tx, host);
    const found = new Set<string>();
    for (let i = 0; i < wanted.length; i += 1000) {
      const done = await tx
        .update(accounts)
        .set({ mailHost: host })
        .where(inArray(accounts.email, wanted.slice(i, i + 1000)))
        .returning({ email: accounts.email });
      for (const r of done) found.add(r.email);
    }
    const missing = wanted.filter((e) => !found.has(e));
    if (missing.length)
      throw new Error(`${missing.length} of ${wanted.length} accounts not hosted, none placed: ${shownNames(missing)}`);
    return found.size;
  });
}

/**
 * The addresses whose mailbox lives on `host` (their own placement, else their domain's), of one domain, of several
 * (each domain's in the order given, as one call per domain would list them), or of all. An unknown host is an
 * error, not an empty list: a misspelt name would give a move's doveadm an empty user list. `byDomain`: only those
 * there through their domain's placement (no host of their own), the ones `domain set-mail-host` moves; a move's
 * copy of the others would be a stale, unused copy of a mailbox that stays.
 */
export async function accountsOnHost(
  db: Db,
  host: string,
  domainIds?: number | number[],
  o: { byDomain?: boolean } = {},
): Promise<string[]> {
  await checkHostExists(db, host);
  const ids = domainIds === undefined ? undefined : [...new Set([domainIds].flat())];
  // A join, not accountsHeldHere's subquery per account: at 1,084,120 accounts PostgreSQL took 4.1 s for that
  // subquery a row and 1.4 s for the join (one hash of the domains' hosts).
  const query = (slice: number[] | undefined) =>
    db
      .select({ email: accounts.email, domainId: accounts.domainId })
      .from(accounts)
      .innerJoin(domains, eq(domains.id, accounts.domainId))
      .where(
        and(
          sql`COALESCE(${accounts.mailHost}, ${domains.mailHost}) = ${host}`,
          slice === undefined ? undefined : inArray(accounts.domainId, slice),
          o.byDomain ? isNull(accounts.mailHost) : undefined,
        ),
      )
      .orderBy(asc(accounts.email));
  if (ids === undefined) return (await query(undefined)).map((r) => r.email);
  const byDomain = new Map<number, string[]>(ids.map((id) => [id, []]));
  // In slices: SQLite takes at most 32,766 bound values in a statement, PostgreSQL 65,535.
  for (let i = 0; i < ids.length; i += 1000)
    for (const r of await query(ids.slice(i, i + 1000))) byDomain.get(r.domainId)!.push(r.email);
  return [...byDomain.values()].flat();
}

/**
 * The ids of hosted domains named, in the order given (duplicates once); unless every name is hosted, an error
 * naming the missing ones, as setDomainsMailHost words it.
 */
export async function hostedDomainIds(db: Db, names: string[]): Promise<number[]> {
  const wanted = [...new Set(names.map((n) => n.toLowerCase()))];
  const found = new Map<string, number>();
  for (let i = 0; i < wanted.length; i += 1000) {
    const rows = await db
      .select({ id: domains.id, name: domains.name })
      .from(domains)
      .where(inArray(domains.name, wanted.slice(i, i + 1000)));
    for (const r of rows) found.set(r.name, r.id);
  }
  const missing = wanted.filter((n) => !found.has(n));
  if (missing.length)
    throw new Error(`${missing.length} of ${wanted.length} domains not hosted: ${shownNames(missing)}`);
  return wanted.map((n) => found.get(n)!);
}

/** Up to ten names of a list, for an error. */
function shownNames(names: string[]): string {
  return names.slice(0, 10).join(", ") + (names.length > 10 ? ", ..." : "");
}

/**
 * The accounts whose mailbox this host holds, as a condition on `accounts`: those placed here (their own host, else
 * their domain's) and those placed nowhere. No host name (one mail host): every account.
 */
export function accountsHeldHere(hostName: string | undefined): SQL | undefined {
  if (!hostName) return undefined;
  const domainHost = sql`(SELECT ${domains.mailHost} FROM ${domains} WHERE ${domains.id} = ${accounts.domainId})`;
  const effective = sql`COALESCE(${accounts.mailHost}, ${domainHost})`;
  return or(sql`${effective} IS NULL`, sql`${effective} = ${hostName}`);
}
