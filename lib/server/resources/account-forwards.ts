import "server-only";
// Forwards to accounts of the same customer: who forwards to an address, and taking deleted accounts out of them.
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, domains, type AccountRow, type DomainRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { resolve } from "@/lib/mailserver/policy/destination";
import { fieldChanges, recordChange } from "./audit";

/**
 * 500.313 naming the forwards of `forwards` that lead back to `account` through aliases or a catchall, followed as
 * the mail server follows them (resolve, lib/mailserver/policy/destination.ts): forwarding to one's own alias is
 * forwarding to oneself, which checkAgainstRecord refuses. Those in `stored` are left alone, so a record read and
 * written back whole stays accepted. `ends` keeps each address's end across the names of one write. Call inside the
 * write's transaction, after the account's aliases are written.
 */
export async function assertForwardsLeave(
  db: Db,
  account: AccountRow,
  forwards: string[],
  stored: string[],
  ends = new Map<string, string | undefined>(),
): Promise<void> {
  const invalid: string[] = [];
  for (const forward of forwards) {
    if (stored.includes(forward)) continue;
    if (!ends.has(forward)) {
      const end = await resolve(db, forward);
      ends.set(forward, end.kind === "account" ? end.address : undefined);
    }
    if (ends.get(forward) === account.email) invalid.push(forward);
  }
  if (invalid.length) throw apiError("invalidForward", "forwards", { invalid });
}

/**
 * The accounts of `domain`'s customer (its domains; the domain alone without a customer) whose forwards name one of
 * `emails`, with their forwards. The JSON text is only a prefilter (LIKE): each list is then checked exactly.
 */
export async function forwardersOf(
  db: Db,
  domain: DomainRow,
  emails: string[],
): Promise<{ account: AccountRow; domain: string; forwards: string[] }[]> {
  if (emails.length === 0) return [];
  const pool =
    domain.customerId === null
      ? [{ id: domain.id, name: domain.name }]
      : await db
          .select({ id: domains.id, name: domains.name })
          .from(domains)
          .where(eq(domains.customerId, domain.customerId));
  const names = new Map(pool.map((d) => [d.id, d.name]));
  const found: { account: AccountRow; domain: string; forwards: string[] }[] = [];
  const wanted = new Set(emails);
  for (let i = 0; i < emails.length; i += 100) {
    const chunk = emails.slice(i, i + 100);
    const rows = await db
      .select()
      .from(accounts)
      .where(
        and(
          inArray(accounts.domainId, [...names.keys()]),
          sql`(${sql.join(
            chunk.map((e) => sql`CAST(${accounts.forwards} AS TEXT) LIKE ${`%"${e}"%`}`),
            sql` OR `,
          )})`,
        ),
      );
    for (const row of rows) {
      if (wanted.has(row.email) || found.some((f) => f.account.id === row.id)) continue;
      if (row.forwards.some((f) => wanted.has(f)))
        found.push({ account: row, domain: names.get(row.domainId)!, forwards: row.forwards });
    }
  }
  return found.sort((a, b) => a.account.email.localeCompare(b.account.email));
}

/** Takes `emails` (accounts being deleted) out of the forwards of the customer's other accounts; audited per account. */
export async function removeForwardsTo(tx: Db, domain: DomainRow, emails: string[]): Promise<void> {
  await dropForwards(tx, await forwardersOf(tx, domain, emails), new Set(emails));
}

/**
 * The same rule for a domain being removed: its accounts leave the forwards of the accounts of its customer's other
 * domains. One LIKE on the domain's name finds the candidates, however many accounts the domain has.
 */
export async function removeForwardsToDomain(tx: Db, domain: DomainRow): Promise<void> {
  if (domain.customerId === null) return;
  const gone = new Set(
    (await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.domainId, domain.id))).map(
      (a) => a.email,
    ),
  );
  const rows = await tx
    .select({ account: accounts, domain: domains.name })
    .from(accounts)
    .innerJoin(domains, eq(domains.id, accounts.domainId))
    .where(
      and(
        eq(domains.customerId, domain.customerId),
        ne(domains.id, domain.id),
        sql`CAST(${accounts.forwards} AS TEXT) LIKE ${`%@${domain.name}"%`}`,
      ),
    );
  const found = rows
    .filter((r) => r.account.forwards.some((f) => gone.has(f)))
    .map((r) => ({ ...r, forwards: r.account.forwards }))
    .sort((a, b) => a.account.email.localeCompare(b.account.email));
  await dropForwards(tx, found, gone);
}

async function dropForwards(
  tx: Db,
  found: { account: AccountRow; domain: string; forwards: string[] }[],
  gone: Set<string>,
): Promise<void> {
  for (const { account, domain: name, forwards } of found) {
    const kept = forwards.filter((f) => !gone.has(f));
    await tx.update(accounts).set({ forwards: kept }).where(eq(accounts.id, account.id));
    await recordChange(tx, {
      domain: name,
      action: "update",
      resource: "account",
      names: [account.name],
      changes: fieldChanges({ forwards: kept }, [{ forwards }]),
    });
  }
}
