import "server-only";
// Mail accounts: the record, the list, create, change (one or many names, atomically) and delete.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, aliases, domains, listMembers, mailingLists, type AccountRow, type DomainRow } from "@/db/schema";
import { ApiError, apiError } from "@/lib/errors/api-error";
import { PanelError } from "@/lib/errors/panel-error";
import { panelErrors } from "@/lib/errors/panel-errors";
import {
  accountFields,
  ACCOUNT_SORT_FIELDS,
  READ_ONLY_ACCOUNT_FIELDS,
  RESTRICTED_ACCOUNT_FIELDS,
  type AccountRecord,
  type AccountSummary,
  type AccountUpdate,
} from "@/lib/schemas/account";
import { parseFields } from "@/lib/schemas/fields";
import { setAccountAliases } from "./account-aliases";
import { removeAliasesTo } from "./aliases";
import { fieldChanges, recordChange } from "./audit";
import { isLoginRefused, today, type Principal } from "../caller/auth";
import { isAdminOf } from "../caller/access";
import { effectiveLimits } from "./customers";
import { listPage, parseListQuery, searchKey } from "./list-page";
import { assertNameFree, failureOfName, withNameChildren } from "./names";
import { hashDigest, hashDigestAsync, sha1Hex } from "../caller/password";
import { endSessions } from "../caller/session";
import { env } from "../env";
import { mailPasswordHash } from "@/lib/mailserver/sha512-crypt";
import { encryptSmsPassword } from "@/lib/mailserver/sms/secret";
import { lockDomain, withTransaction } from "@/db/transaction";
import type { ListQuery } from "@/lib/schemas/list-query";
import { prepared } from "../store/prepared";

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

const domainSwitch = (value: number, serverDefault: "0" | "1") =>
  value === 0 || value === 1 ? value : Number(serverDefault);

export function toAccountRecord(a: AccountRow, domain: DomainRow, aliasEmails: string[]): AccountRecord {
  return {
    name: a.name,
    domain: domain.name,
    email: a.email,
    description: a.description,
    capacity: a.capacity,
    usage: a.usagePercent,
    usage_bytes: a.usageBytes,
    password: "",
    password_retype: "",
    usage_notification_level: a.usageNotificationLevel,
    expiration_date: a.expirationDate,
    creation_date: a.creationDate,
    last_auth_date: a.lastAuthDate,
    last_auth_ip: a.lastAuthIp,
    keep_mail: a.keepMail,
    forwards: a.forwards,
    forward_email_1: a.forwards[0] ?? "",
    forward_email_2: a.forwards[1] ?? "",
    forward_email_3: a.forwards[2] ?? "",
    forward_limit: a.forwardLimit,
    aliases: aliasEmails,
    alias_limit: a.aliasLimit,
    alias_creation_priv: a.aliasCreationPriv,
    inbox_delete_after: a.inboxDeleteAfter,
    trash_delete_after: a.trashDeleteAfter,
    spam_enabled: a.spamEnabled,
    spam_rule: a.spamRule as AccountRecord["spam_rule"],
    spam_hits: a.spamHits,
    spam_delete_after: a.spamDeleteAfter,
    spam_white_list: a.spamWhiteList,
    spam_black_list: a.spamBlackList,
    spam_greylist_whitelist: a.spamGreylistWhitelist,
    spam_spf_whitelist: a.spamSpfWhitelist,
    spam_rbl_whitelist: a.spamRblWhitelist,
    spam_rbl_enabled: a.spamRblEnabled,
    spam_spf_enabled: a.spamSpfEnabled,
    spam_greylist_enabled: a.spamGreylistEnabled,
    // What -1 means for this account: the domain's value, or where that is -1 too, the server's (the setting the
    // policy service applies, lib/mailserver/policy/spam-policy.ts).
    spam_rbl_default: domainSwitch(domain.spamRblEnabled, env().SPAM_RBL_DEFAULT),
    spam_spf_default: domainSwitch(domain.spamSpfEnabled, env().SPAM_SPF_DEFAULT),
    spam_greylist_default: domainSwitch(domain.spamGreylistEnabled, env().SPAM_GREYLIST_DEFAULT),
    sms_phone_number_1: a.smsPhoneNumber1,
    sms_phone_number_2: a.smsPhoneNumber2,
    sms_login_1: a.smsLogin1,
    sms_login_2: a.smsLogin2,
    sms_password_1: "",
    sms_password_2: "",
    sms_operator_1: a.smsOperator1,
    sms_operator_2: a.smsOperator2,
    sms_send_to: a.smsSendTo,
    sms_cnt: a.smsCnt,
    autoresponder_mode: a.autoresponderMode,
    autoresponder_start_date: a.autoresponderStartDate,
    autoresponder_end_date: a.autoresponderEndDate,
    autoresponder_body: a.autoresponderBody,
    blocked: a.blocked,
    extra_rules: a.extraRules,
  };
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

export async function accountRecord(db: Db, domain: DomainRow, row: AccountRow): Promise<AccountRecord> {
  const aliasEmails = (await statements(db).aliasesOf.execute({ domainId: domain.id, target: row.email })).map(
    (a) => a.email,
  );
  return toAccountRecord(row, domain, aliasEmails);
}

/** One account's record by name, or 404.x: the row and its aliases read together. */
export async function getAccountRecordOrThrow(db: Db, domain: DomainRow, name: string): Promise<AccountRecord> {
  const [found] = await statements(db).recordByName.execute({ domainId: domain.id, name });
  if (!found) throw apiError("recordNotFound", name, { resource: "account" });
  // Addresses hold no spaces (lib/schemas/common.ts), so a space separates them.
  return toAccountRecord(found.account, domain, found.aliases ? found.aliases.split(" ") : []);
}

interface SummaryRow {
  name: string;
  email: string;
  creation_date: string;
  expiration_date: string;
  last_auth_date: string;
  capacity: number;
  description: string;
  blocked: number;
  usage_percent: number;
  usage_bytes: number;
}

/** GET emails/<domain>'s query string, parsed (500.130 naming a bad parameter). */
export const parseAccountListQuery = (query: URLSearchParams, domain: DomainRow) =>
  parseListQuery(query, ACCOUNT_SORT_FIELDS, domain.name);

export function listAccounts(db: Db, domain: DomainRow, q: ListQuery) {
  return listPage<SummaryRow>(
    db,
    {
      table: "accounts",
      columns:
        "name, email, creation_date, expiration_date, last_auth_date, capacity, description, blocked, usage_percent, usage_bytes",
      sortColumns: {
        name: "name",
        email: "name",
        domain: "name",
        creation_date: "creation_date",
        expiration_date: "expiration_date",
        last_auth_date: "last_auth_date",
        capacity: "capacity",
        description: "description",
        blocked: "blocked",
        usage: "usage_percent",
        usage_bytes: "usage_bytes",
      },
      toItem: (r): AccountSummary => ({
        email: r.email,
        creation_date: r.creation_date,
        expiration_date: r.expiration_date,
        last_auth_date: r.last_auth_date,
        capacity: String(r.capacity),
        description: r.description,
        blocked: String(r.blocked) as AccountSummary["blocked"],
        name: r.name,
        domain: domain.name,
        usage: `${r.usage_percent}%`,
        usage_bytes: String(r.usage_bytes),
      }),
    },
    domain.id,
    q,
  );
}

// --- writes ---

/** The old values of the fields in `input` (API names), for the audit log. */
async function auditOld(
  db: Db,
  domain: DomainRow,
  row: AccountRow,
  input: AccountUpdate,
): Promise<Record<string, unknown>> {
  const old: Record<string, unknown> = {};
  for (const field of Object.keys(input)) {
    if (field === "aliases")
      old.aliases = (await statements(db).aliasesOf.execute({ domainId: domain.id, target: row.email })).map(
        (a) => a.email,
      );
    else old[field] = (row as Record<string, unknown>)[camel(field)];
  }
  return old;
}

const camel = (field: string) => field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
/** Fields stored in a column of the same (camel-cased) name. */
const COLUMN_FIELDS = Object.keys(accountFields).filter(
  (f) => !["password", "password_retype", "aliases"].includes(f),
) as (keyof AccountUpdate)[];

function columnValues(input: AccountUpdate): Partial<AccountRow> {
  const values: Record<string, unknown> = {};
  for (const field of COLUMN_FIELDS) if (input[field] !== undefined) values[camel(field)] = input[field];
  // SMS gateway passwords are stored encrypted and read back as "" (like password): "" leaves the stored one.
  for (const key of ["smsPassword1", "smsPassword2"] as const) {
    if (values[key] === "") delete values[key];
    else if (typeof values[key] === "string") values[key] = encryptSmsPassword(values[key]);
  }
  return values;
}

/**
 * The scrypt hash of a body's new password, computed off the event loop: request handlers pass it on to
 * createAccount / updateAccounts, which then do not hash on the loop. Undefined when the body sets no password.
 */
export async function prehashPassword(body: Record<string, unknown>): Promise<Prehashed | undefined> {
  const password = body.password;
  if (typeof password !== "string" || password === "") return undefined;
  return { password, hash: await hashDigestAsync(sha1Hex(password)) };
}
export interface Prehashed {
  password: string;
  hash: string;
}

/** Password and its retype: the new scrypt hash, or undefined when unchanged. */
function passwordHashOf(input: AccountUpdate, required: boolean, prehashed?: Prehashed): string | undefined {
  const password = input.password ?? "";
  // Contract §7: a non-empty retype must equal the password, an empty or missing password included (a client that
  // sends only the retype believes it changes the password).
  if (input.password_retype && input.password_retype !== password)
    throw apiError("passwordMismatch", "password_retype");
  if (password === "") {
    if (required) throw apiError("invalidPassword", "password");
    return undefined;
  }
  return prehashed?.password === password ? prehashed.hash : hashDigest(sha1Hex(password));
}

/** Rules that depend on the stored record: limits of the owner, dates in order, no forward to itself. */
function checkAgainstRecord(merged: AccountRow, input: AccountUpdate, byAdmin: boolean, stored: string[] = []): void {
  if (input.forwards) {
    if (input.forwards.includes(merged.email))
      throw apiError("invalidForward", "forwards", { invalid: [merged.email] });
    // The stored list sent back unchanged (a GET record written back whole) is not the owner setting forwards,
    // even when the administrator set more than forward_limit.
    const unchanged = input.forwards.length === stored.length && input.forwards.every((f, i) => f === stored[i]);
    if (!byAdmin && !unchanged && input.forwards.length > merged.forwardLimit) {
      throw apiError("tooManyForwards", "forwards", { forward_limit: merged.forwardLimit });
    }
  }
  const { autoresponderStartDate: start, autoresponderEndDate: end } = merged;
  if (start && end && end < start) {
    throw apiError("autoresponderEndBeforeStart", "autoresponder_end_date", { start_date: start, end_date: end });
  }
}

function checkRestricted(row: AccountRow, input: AccountUpdate): void {
  for (const field of RESTRICTED_ACCOUNT_FIELDS) {
    const value = input[field];
    if (value !== undefined && value !== row[camel(field) as keyof AccountRow])
      throw apiError("restrictedField", field);
  }
}

function checkPostmaster(row: AccountRow, input: AccountUpdate): void {
  if (row.name !== "postmaster") return;
  if (input.blocked === 1) throw apiError("postmasterProtected", "blocked");
  if (input.expiration_date && input.expiration_date < today())
    throw apiError("postmasterProtected", "expiration_date");
}

async function checkCapacity(db: Db, domainId: number, before: number): Promise<void> {
  const d = await effectiveLimits(db, { id: domainId });
  if (d.capacitySum > d.capacityLimit && d.capacitySum > before) {
    const free = Math.max(0, d.capacityLimit - before);
    throw apiError("capacityLimitReached", "capacity", {
      capacity_limit: d.capacityLimit,
      free_mb: free,
      requested: d.capacitySum,
    });
  }
}

/** POST emails/<domain>/<name> (domain administrator). */
export async function createAccount(
  db: Db,
  domain: DomainRow,
  name: string,
  body: Record<string, unknown>,
  prehashed?: Prehashed,
): Promise<AccountRow> {
  const input = parseFields(body, accountFields, READ_ONLY_ACCOUNT_FIELDS);
  const passwordHash = passwordHashOf(input, true, prehashed)!;
  const mailHash = mailPasswordHash(input.password!);
  return withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    await assertNameFree(tx, domain.id, name);
    const d = await effectiveLimits(tx, domain);
    if (d.accountCount + 1 > d.accountLimit)
      throw apiError("accountLimitReached", "name", { account_limit: d.accountLimit });
    const email = `${name}@${domain.name}`;
    const values = {
      ...columnValues(input),
      domainId: domain.id,
      name,
      email,
      passwordHash,
      mailPasswordHash: mailHash,
    };
    values.searchKey = searchKey(name, values.description ?? "");
    const draft = { ...values, forwardLimit: values.forwardLimit ?? 3 } as AccountRow;
    checkAgainstRecord(draft, input, true);
    const [row] = await tx.insert(accounts).values(values).returning();
    await checkCapacity(tx, domain.id, d.capacitySum);
    if (input.aliases) await setAccountAliases(tx, domain, row!, input.aliases, true);
    await recordChange(tx, {
      domain: domain.name,
      action: "create",
      resource: "account",
      names: [name],
      changes: fieldChanges(input, null),
    });
    return row!;
  });
}

/**
 * PUT emails/<domain>/<names>: the same change to every named account, all or nothing. For several names the
 * error carries one child per failing name (contract §3).
 */
export async function updateAccounts(
  db: Db,
  principal: Principal,
  domain: DomainRow,
  names: string[],
  body: Record<string, unknown>,
  /** Set only by the panel's password change (lib/server/caller/own-password.ts), which has checked the current one. */
  { currentPasswordProven = false, prehashed }: { currentPasswordProven?: boolean; prehashed?: Prehashed } = {},
): Promise<AccountRow[]> {
  const input = parseFields(body, accountFields, READ_ONLY_ACCOUNT_FIELDS);
  const byAdmin = isAdminOf(principal, domain.name);
  // A panel session alone never sets its own account's password, whatever the path and however many names it
  // carries: the panel asks for the current password (PUT /api/panel/password), so a stolen session cannot take
  // the account over. API callers (Basic) have just proved the password.
  const ownName = principal.account.domainId === domain.id ? principal.account.name : null;
  if (
    principal.sessionIdHash &&
    !currentPasswordProven &&
    (input.password ?? "") !== "" &&
    ownName !== null &&
    names.some((n) => n.toLowerCase() === ownName)
  ) {
    throw new PanelError(panelErrors.currentPasswordRequired, "password");
  }
  const passwordHash = passwordHashOf(input, false, prehashed);
  const values = columnValues(input);
  if (passwordHash) values.passwordHash = passwordHash;
  // The mail server's own hash of the same password (docs/mail-server.md), written with the API's.
  if (passwordHash) values.mailPasswordHash = mailPasswordHash(input.password!);
  return withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    const before = (await effectiveLimits(tx, domain)).capacitySum;
    const failures: ApiError[] = [];
    const olds: Record<string, unknown>[] = [];
    // The rows read, checked and written in bulk, not name by name: one statement per slice of names instead of
    // two per name, which on PostgreSQL is a network round trip each (a 1,000-name PUT took 1.4-3.5 s; bench/).
    const rows = await accountsByName(tx, domain, names);
    const checked: { name: string; row: AccountRow }[] = [];
    for (const name of names) {
      try {
        const row = rows.get(name);
        if (!row) throw apiError("recordNotFound", name, { resource: "account" });
        if (!byAdmin) checkRestricted(row, input);
        checkPostmaster(row, input);
        const merged = { ...row, ...values };
        checkAgainstRecord(merged, input, byAdmin, row.forwards);
        olds.push(await auditOld(tx, domain, row, input));
        checked.push({ name, row });
      } catch (err) {
        if (!(err instanceof ApiError) || names.length === 1) throw err;
        failures.push(failureOfName(name, err));
      }
    }
    if (failures.length) throw withNameChildren(failures);
    const written =
      Object.keys(values).length > 0 ? await updateRows(tx, checked, values) : new Map<number, AccountRow>();
    const updated: AccountRow[] = [];
    for (const { name, row } of checked) {
      try {
        const next = written.get(row.id) ?? row;
        if (input.aliases) await setAccountAliases(tx, domain, next, input.aliases, byAdmin);
        updated.push(next);
      } catch (err) {
        if (!(err instanceof ApiError) || names.length === 1) throw err;
        failures.push(failureOfName(name, err));
      }
    }
    if (failures.length) throw withNameChildren(failures);
    // Blocked or expired: every panel session of the account ends now, in every process (they are rows).
    // A new password ends them too, except the one that set it.
    const refused = new Set(updated.filter((a) => isLoginRefused(a)).map((a) => a.id));
    await endSessions(tx, [...refused]);
    if (passwordHash)
      await endSessions(
        tx,
        updated.map((a) => a.id).filter((id) => !refused.has(id)),
        principal.sessionIdHash,
      );
    await checkCapacity(tx, domain.id, before);
    await recordChange(tx, {
      domain: domain.name,
      action: "update",
      resource: "account",
      names,
      changes: fieldChanges(input, olds),
    });
    return updated;
  });
}

/** Names per statement of the bulk reads and writes below (well under SQLite's 32,766 bound parameters). */
const BULK = 500;

/** The domain's accounts named in `names` (exact names), by name. */
async function accountsByName(db: Db, domain: DomainRow, names: string[]): Promise<Map<string, AccountRow>> {
  const unique = [...new Set(names)];
  const byName = new Map<string, AccountRow>();
  for (let i = 0; i < unique.length; i += BULK) {
    const slice = unique.slice(i, i + BULK);
    const rows = await db
      .select()
      .from(accounts)
      .where(and(eq(accounts.domainId, domain.id), inArray(accounts.name, slice)));
    for (const row of rows) byName.set(row.name, row);
  }
  return byName;
}

/**
 * Writes the same column values to every checked row, each with its own search key when the description changes
 * (the key is made in JS: SQL's lower() differs between the engines and from JavaScript's); the new rows by id.
 */
async function updateRows(
  db: Db,
  checked: { name: string; row: AccountRow }[],
  values: Partial<AccountRow>,
): Promise<Map<number, AccountRow>> {
  const ids = [...new Set(checked.map((c) => c.row.id))];
  const nameOf = new Map(checked.map((c) => [c.row.id, c.row.name]));
  const written = new Map<number, AccountRow>();
  for (let i = 0; i < ids.length; i += BULK) {
    const slice = ids.slice(i, i + BULK);
    const keys =
      values.description !== undefined
        ? {
            searchKey: sql`CASE ${accounts.id} ${sql.join(
              slice.map((id) => sql`WHEN ${id} THEN ${searchKey(nameOf.get(id)!, values.description!)}`),
              sql` `,
            )} END`,
          }
        : {};
    const rows = await db
      .update(accounts)
      .set({ ...values, ...keys })
      .where(inArray(accounts.id, slice))
      .returning();
    for (const row of rows) written.set(row.id, row);
  }
  return written;
}

/** DELETE emails/<domain>/<names>: removes the accounts and the aliases pointing at them, all or nothing. */
export async function deleteAccounts(db: Db, domain: DomainRow, names: string[]): Promise<void> {
  await withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    const failures: ApiError[] = [];
    const rows: AccountRow[] = [];
    for (const name of names) {
      const row = await findAccount(tx, domain, name);
      if (!row) failures.push(apiError("recordNotFound", name, { resource: "account" }));
      else if (row.name === "postmaster") failures.push(apiError("postmasterProtected", name));
      else rows.push(row);
    }
    if (failures.length) throw names.length === 1 ? failures[0]! : withNameChildren(failures);
    const emails = rows.map((r) => r.email);
    for (let i = 0; i < emails.length; i += 500) {
      const chunk = emails.slice(i, i + 500);
      // The account leaves the domain's lists, as subscriber and as moderator (lists of other domains are theirs).
      await tx
        .delete(listMembers)
        .where(
          and(
            inArray(listMembers.address, chunk),
            inArray(
              listMembers.listId,
              tx.select({ id: mailingLists.id }).from(mailingLists).where(eq(mailingLists.domainId, domain.id)),
            ),
          ),
        );
      await tx.delete(accounts).where(inArray(accounts.email, chunk));
    }
    // Contract §9: the domain's aliases that pointed at them go (those of other domains are never touched).
    await removeAliasesTo(tx, domain, emails);
    // Forwards to them from the customer's accounts go too: a freed address would otherwise receive their mail.
    await removeForwardsTo(tx, domain, emails);
    // A catchall that delivered to a deleted account would bounce everything: turn it off instead.
    const catchallOff = domain.catchallType === 1 && emails.includes(domain.catchallAddress);
    if (catchallOff) {
      await tx.update(domains).set({ catchallType: 0, catchallAddress: "" }).where(eq(domains.id, domain.id));
    }
    await recordChange(tx, {
      domain: domain.name,
      action: "delete",
      resource: "account",
      names,
      changes: catchallOff
        ? { catchall_type: { old: 1, new: 0 }, catchall_address: { old: domain.catchallAddress, new: "" } }
        : {},
    });
  });
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
async function removeForwardsTo(tx: Db, domain: DomainRow, emails: string[]): Promise<void> {
  const gone = new Set(emails);
  for (const { account, domain: name, forwards } of await forwardersOf(tx, domain, emails)) {
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

/** `usage report`: what the mail server's quota accounting says is stored in a mailbox. */
export async function recordUsage(db: Db, email: string, bytes: number, messages?: number): Promise<AccountRow> {
  const [row] = await withTransaction(db, (tx) =>
    tx
      .update(accounts)
      .set({ usageBytes: bytes, ...(messages === undefined ? {} : { usageMessages: messages }) })
      .where(eq(accounts.email, email))
      .returning()
      .execute(),
  );
  if (!row) throw apiError("recordNotFound", email, { resource: "account" });
  return row;
}
