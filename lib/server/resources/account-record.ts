import "server-only";
// Reading mail accounts: one account's row and record, and the domain's list page.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, aliases, type AccountRow, type DomainRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { toAccountRecord as recordOf, type AccountRecord } from "@/lib/schemas/account";
import { ACCOUNT_LIST_COLUMNS, ACCOUNT_SORT_FIELDS } from "@/lib/schemas/list-columns";
import type { PageQuery } from "@/lib/schemas/page-query";
import { spamDefaults } from "../spam-defaults";
import { prepared } from "../store/prepared";
import { columnsSpec, readPage, parsePageQuery } from "./page";

const statements = prepared((db) => ({
  byName: db
    .select()
    .from(accounts)
    .where(and(eq(accounts.domainId, sql.placeholder("domainId")), eq(accounts.name, sql.placeholder("name"))))
    .prepare(),
  // The account with its aliases' addresses (as accountRecord reads them), in one statement: one round trip.
  recordByName: db
    .select({
      account: accounts,
      // Spelt out: Drizzle leaves the table off the columns of a one-table select, which would lose the correlation.
      aliases: sql<string | null>`(SELECT string_agg(al.email, ' ' ORDER BY al.name) FROM aliases al
        WHERE al.domain_id = "accounts"."domain_id" AND al.target = "accounts"."email")`,
    })
    .from(accounts)
    .where(and(eq(accounts.domainId, sql.placeholder("domainId")), eq(accounts.name, sql.placeholder("name"))))
    .prepare(),
  // Contract §7: only the account's own domain's aliases; other domains' aliases to it are not its administrator's
  // business (and would not survive the record being sent back whole).
  aliasesOf: db
    .select({ email: aliases.email })
    .from(aliases)
    .where(and(eq(aliases.domainId, sql.placeholder("domainId")), eq(aliases.target, sql.placeholder("target"))))
    .orderBy(aliases.name)
    .prepare(),
}));

export function toAccountRecord(a: AccountRow, domain: DomainRow, aliasEmails: string[]): AccountRecord {
  return recordOf(a, { domain, aliases: aliasEmails, defaults: spamDefaults() });
}
export type { AccountRecord };

export async function findAccount(db: Db, domain: DomainRow, name: string): Promise<AccountRow | undefined> {
  return (await statements(db).byName.execute({ domainId: domain.id, name }))[0];
}

export async function getAccountOrThrow(db: Db, domain: DomainRow, name: string): Promise<AccountRow> {
  const row = await findAccount(db, domain, name);
  if (!row) throw apiError("recordNotFound", name, { resource: "account" });
  return row;
}

/** The addresses of the domain's aliases to `email`, by alias name. */
export async function aliasEmailsOf(db: Db, domain: DomainRow, email: string): Promise<string[]> {
  return (await statements(db).aliasesOf.execute({ domainId: domain.id, target: email })).map((a) => a.email);
}

export async function accountRecord(db: Db, domain: DomainRow, row: AccountRow): Promise<AccountRecord> {
  return toAccountRecord(row, domain, await aliasEmailsOf(db, domain, row.email));
}

/** One account's record by name, or 404.x: the row and its aliases read together. */
export async function getAccountRecordOrThrow(db: Db, domain: DomainRow, name: string): Promise<AccountRecord> {
  const [found] = await statements(db).recordByName.execute({ domainId: domain.id, name });
  if (!found) throw apiError("recordNotFound", name, { resource: "account" });
  // Addresses hold no spaces (lib/schemas/common.ts), so a space separates them.
  return toAccountRecord(found.account, domain, found.aliases ? found.aliases.split(" ") : []);
}

/** GET emails/<domain>'s query string, parsed (500.130 naming a bad parameter). */
export const parseAccountListQuery = (query: URLSearchParams, domain: DomainRow) =>
  parsePageQuery(query, ACCOUNT_SORT_FIELDS, domain.name);

export function listAccounts(db: Db, domain: DomainRow, q: PageQuery) {
  return readPage(db, columnsSpec("accounts", ACCOUNT_LIST_COLUMNS, domain.name), domain.id, q);
}
