import "server-only";
// Mail accounts: create, change (one or many names, atomically) and delete; reading them is in ./account-record.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, domains, listMembers, mailingLists, type AccountRow, type DomainRow } from "@/db/schema";
import { ApiError, apiError } from "@/lib/errors/api-error";
import { PanelError } from "@/lib/errors/panel-error";
import { panelErrors } from "@/lib/errors/panel-errors";
import { accountFields, READ_ONLY_ACCOUNT_FIELDS, type AccountUpdate } from "@/lib/schemas/account";
import { camel, parseFields } from "@/lib/schemas/fields";
import { setAccountAliases } from "./account-aliases";
import {
  checkAgainstRecord,
  checkCapacity,
  checkPostmaster,
  capacityLimitReached,
  checkRestricted,
  checkRestrictedValues,
  passwordHashesOf,
  prehashPassword,
  type PasswordHashes,
  type Prehashed,
} from "./account-checks";
import { assertForwardsLeave, removeForwardsTo } from "./account-forwards";
import { aliasEmailsOf, findAccount, getAccountOrThrow } from "./account-record";
import { removeAliasesTo } from "./aliases";
import { fieldChanges, recordChange } from "./audit";
import { isLoginRefused, type Principal } from "../caller/auth";
import { isAdminOf } from "../caller/access";
import { effectiveLimits } from "./customers";
import { searchKey } from "./page";
import { assertNameFree, failureOfName, nameHolders, withNameChildren } from "./names";
import { isAccountName } from "@/lib/schemas/common";
import { endSessions } from "../caller/session";
import { recordRemovedMailboxes } from "@/lib/mailserver/removed-mailboxes";
import { encryptSmsPassword } from "@/lib/mailserver/sms/secret";
import { lockDomain, withTransaction } from "@/db/transaction";

export {
  accountRecord,
  findAccount,
  getAccountOrThrow,
  getAccountRecordOrThrow,
  listAccounts,
  parseAccountListQuery,
  toAccountRecord,
  type AccountRecord,
} from "./account-record";
export { forwardersOf } from "./account-forwards";
export { prehashPassword, type Prehashed } from "./account-checks";

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
    if (field === "aliases") old.aliases = await aliasEmailsOf(db, domain, row.email);
    else old[field] = (row as Record<string, unknown>)[camel(field)];
  }
  return old;
}

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

/** A new account's row as createAccount and createAccounts insert it, checked as a whole (checkAgainstRecord). */
function newAccountValues(domain: DomainRow, name: string, input: AccountUpdate, hashes: PasswordHashes) {
  const values = {
    ...columnValues(input),
    domainId: domain.id,
    name,
    email: `${name}@${domain.name}`,
    passwordHash: hashes.hash,
    mailPasswordHash: hashes.mailHash,
  };
  values.searchKey = searchKey(name, values.description ?? "");
  checkAgainstRecord({ ...values, forwardLimit: values.forwardLimit ?? 3 } as AccountRow, input, true);
  return values;
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
  const hashes = passwordHashesOf(input, true, prehashed)!;
  return withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    await assertNameFree(tx, domain.id, name);
    const d = await effectiveLimits(tx, domain);
    if (d.accountCount + 1 > d.accountLimit)
      throw apiError("accountLimitReached", "name", { account_limit: d.accountLimit });
    const values = newAccountValues(domain, name, input, hashes);
    const [row] = await tx.insert(accounts).values(values).returning();
    await checkCapacity(tx, domain.id, d.capacitySum);
    if (input.aliases) await setAccountAliases(tx, domain, row!, input.aliases, true);
    if (input.forwards) await assertForwardsLeave(tx, row!, input.forwards, []);
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

/** An account for createAccounts: its name, its fields (as a POST body, without a password) and its hashes. */
export interface NewAccount {
  name: string;
  body: Record<string, unknown>;
  /** The API's hash (API_HASH_AT_FIRST_SIGN_IN when it is made at the first panel sign-in) and the mail hash. */
  hashes: PasswordHashes;
  /** The password the hashes were made from when the caller was given it (not generated): a `password_retype` in
   * `body` must equal it, as in a POST. */
  password?: string;
}

export type NewAccountOutcome =
  | { name: string; state: "created"; row: AccountRow }
  | { name: string; state: "exists" }
  | { name: string; state: "failed"; error: ApiError };

/**
 * Many accounts of one domain in one transaction (`account import`): each checked as createAccount checks one (the
 * fields, the name, the shared namespace, the domain's or the customer's account and capacity limits, in the given
 * order), the names read and the rows written in bulk. An account already there is reported, never changed; one
 * that fails is reported and the others are created. Those with aliases, or with a forward to a domain hosted here
 * (checked against aliases leading back to the account, as createAccount checks it), are written one by one, each in
 * a savepoint of its own, so a refusal leaves no account behind.
 */
export async function createAccounts(db: Db, domain: DomainRow, items: NewAccount[]): Promise<NewAccountOutcome[]> {
  const outcomes: NewAccountOutcome[] = [];
  const drafts: { i: number; input: AccountUpdate; values: typeof accounts.$inferInsert & { capacity: number } }[] = [];
  for (const [i, { name, body, hashes, password }] of items.entries()) {
    try {
      if (!isAccountName(name)) throw apiError("invalidAccountName", "name");
      const input = parseFields(body, accountFields, READ_ONLY_ACCOUNT_FIELDS);
      // The password arrives as its hashes; a retype, as POST takes it, must equal the password the line gave.
      if (input.password) throw apiError("unknownField", "password");
      if (input.password_retype && input.password_retype !== (password ?? ""))
        throw apiError("passwordMismatch", "password_retype");
      const values = {
        ...newAccountValues(domain, name, input, hashes),
        capacity: input.capacity ?? (accounts.capacity.default as number),
      };
      drafts.push({ i, input, values });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      outcomes[i] = { name, state: "failed", error: err };
    }
  }
  return withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    const held = await nameHolders(
      tx,
      domain.id,
      drafts.map((d) => d.values.name),
    );
    const limits = await effectiveLimits(tx, domain);
    let { accountCount, capacitySum } = limits;
    const accepted: typeof drafts = [];
    for (const draft of drafts) {
      const { name, capacity } = draft.values;
      const fail = (error: ApiError) => (outcomes[draft.i] = { name, state: "failed", error });
      const holder = held.get(name);
      if (holder === "account") outcomes[draft.i] = { name, state: "exists" };
      else if (holder) fail(apiError("nameTaken", "name"));
      else if (accountCount + 1 > limits.accountLimit)
        fail(apiError("accountLimitReached", "name", { account_limit: limits.accountLimit }));
      else if (capacity > 0 && capacitySum + capacity > limits.capacityLimit)
        fail(capacityLimitReached(limits.capacityLimit, capacitySum, capacitySum + capacity));
      else {
        held.set(name, "account"); // a second line with the same name finds it there
        // Its aliases too, though written after the plain accounts: a later line may not take their names.
        for (const alias of draft.input.aliases ?? []) {
          const at = alias.lastIndexOf("@");
          if (alias.slice(at + 1).toLowerCase() === domain.name) held.set(alias.slice(0, at).toLowerCase(), "alias");
        }
        accountCount++;
        capacitySum += capacity;
        accepted.push(draft);
      }
    }
    // A forward can lead back to its new account only through an address of a domain hosted here (an alias or
    // catchall made earlier): such lines are checked one by one below, as lines with aliases are.
    const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1);
    const forwardDomains = [...new Set(accepted.flatMap((d) => (d.input.forwards ?? []).map(domainOf)))];
    const hosted = new Set<string>();
    for (let k = 0; k < forwardDomains.length; k += 500) {
      const rows = await tx
        .select({ name: domains.name })
        .from(domains)
        .where(inArray(domains.name, forwardDomains.slice(k, k + 500)));
      for (const r of rows) hosted.add(r.name);
    }
    const oneByOne = (d: (typeof accepted)[number]) =>
      !!d.input.aliases || (d.input.forwards ?? []).some((f) => hosted.has(domainOf(f)));
    const plain = accepted.filter((d) => !oneByOne(d));
    // 50 rows a statement: well under SQLite's 32,766 bound parameters with every column of the table.
    for (let k = 0; k < plain.length; k += 50) {
      const slice = plain.slice(k, k + 50);
      const rows = await tx
        .insert(accounts)
        .values(slice.map((d) => d.values))
        .returning();
      // By name: SQLite gives RETURNING's rows in no set order (the accepted names are distinct).
      const lineOf = new Map(slice.map((d) => [d.values.name, d.i]));
      for (const row of rows) outcomes[lineOf.get(row.name)!] = { name: row.name, state: "created", row };
    }
    for (const draft of accepted.filter(oneByOne)) {
      try {
        const row = await withTransaction(tx, async (inner) => {
          const [created] = await inner.insert(accounts).values(draft.values).returning();
          if (draft.input.aliases) await setAccountAliases(inner, domain, created!, draft.input.aliases, true);
          if (draft.input.forwards) await assertForwardsLeave(inner, created!, draft.input.forwards, []);
          return created!;
        });
        outcomes[draft.i] = { name: row.name, state: "created", row };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        outcomes[draft.i] = { name: draft.values.name, state: "failed", error: err };
      }
    }
    await checkCapacity(tx, domain.id, limits.capacitySum);
    const created = outcomes.flatMap((o) => (o.state === "created" ? [o.name] : []));
    if (created.length)
      await recordChange(tx, { domain: domain.name, action: "create", resource: "account", names: created });
    return outcomes;
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
  const byAdmin = isAdminOf(principal, domain.name);
  if (!byAdmin) checkRestrictedValues(body);
  const input = parseFields(body, accountFields, READ_ONLY_ACCOUNT_FIELDS);
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
  const hashes = passwordHashesOf(input, false, prehashed);
  const values = columnValues(input);
  if (hashes) {
    values.passwordHash = hashes.hash;
    values.mailPasswordHash = hashes.mailHash;
  }
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
        if (!row) {
          // About the name itself, not a field of it: as aliases and lists report it (findAllOrThrow).
          const missing = apiError("recordNotFound", name, { resource: "account" });
          if (names.length === 1) throw missing;
          failures.push(missing);
          continue;
        }
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
    // Once every name's aliases are written: a forward to an alias the same body gives the account leads back too.
    const ends = new Map<string, string | undefined>();
    for (const { name, row } of input.forwards ? checked : []) {
      try {
        await assertForwardsLeave(tx, row, input.forwards!, row.forwards, ends);
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
    if (hashes)
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

/**
 * The operator's password reset (`account set-password`), for an owner or a postmaster who forgot theirs: set as the
 * domain's administrator sets it through the API (the password rule, the mail hashes, the account's panel sessions
 * ended), audited as the CLI's.
 */
export async function resetPassword(db: Db, domain: DomainRow, name: string, password: string): Promise<AccountRow> {
  const [row] = await updateAccounts(
    db,
    await postmasterOf(db, domain),
    domain,
    [name],
    { password },
    {
      prehashed: await prehashPassword({ password }),
    },
  );
  return row!;
}

/** The operator's block or unblock of an account (the CLI), made as the postmaster's (so the postmaster's is refused). */
export async function setBlocked(db: Db, domain: DomainRow, name: string, blocked: boolean): Promise<AccountRow> {
  const [row] = await updateAccounts(db, await postmasterOf(db, domain), domain, [name], { blocked: blocked ? 1 : 0 });
  return row!;
}

/** The domain's postmaster as the principal of an operator's change, so the change obeys the postmaster's rules. */
async function postmasterOf(db: Db, domain: DomainRow): Promise<Principal> {
  const postmaster = await getAccountOrThrow(db, domain, "postmaster");
  return { account: postmaster, domain: domain.name, domainRow: domain, isPostmaster: true };
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
      // Its folder on the mail host goes too, and until then the address cannot log in (removed-mailboxes.ts).
      await recordRemovedMailboxes(tx, inArray(accounts.email, chunk));
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
