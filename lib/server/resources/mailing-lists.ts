import "server-only";
// Mailing lists: the record with its subscribers and moderators, the list view, create, change and delete.
import { effectiveLimits } from "./customers";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { listMembers, mailingLists, type DomainRow, type MailingListRow } from "@/db/schema";
import { ApiError, apiError } from "@/lib/errors/api-error";
import { parseFields } from "@/lib/schemas/fields";
import {
  DEFAULT_LIST_TEMPLATES,
  LIST_SORT_FIELDS,
  MAX_LIST_ACCOUNTS,
  mailingListFields,
  READ_ONLY_LIST_FIELDS,
  toMailingListRecord,
  type MailingListInput,
  type MailingListRecord,
} from "@/lib/schemas/mailing-list";
import { MAILING_LIST_LIST_COLUMNS } from "@/lib/schemas/list-columns";
import { fieldChanges, listChangeSummary, recordChange } from "./audit";
import {
  applyPlan,
  checkedAddresses,
  memberVersion,
  oneAtATime,
  planMembers,
  type MemberPlan,
} from "./list-members-put";
import { columnsSpec, readPage, parsePageQuery, searchKey } from "./page";
import { assertNameFree, failureOfName, findAllOrThrow, withNameChildren } from "./names";
import { removeAliasesTo } from "./aliases";
import { lockDomain, withTransaction } from "@/db/transaction";
import type { PageQuery } from "@/lib/schemas/page-query";
import { prepared } from "../store/prepared";
import { listMemberStatements, type MemberRole } from "../store/list-members";
import { checkModerators, checkReplyTo, columnValues, replaceMembers, type ListRules } from "./mailing-list-rules";
import { assertNoNestedList } from "./list-nesting";

type Role = MemberRole;

const statements = prepared((db) => ({
  byName: db
    .select()
    .from(mailingLists)
    .where(and(eq(mailingLists.domainId, sql.placeholder("domainId")), eq(mailingLists.name, sql.placeholder("name"))))
    .prepare(),
  members: db
    .select({ address: listMembers.address, role: listMembers.role })
    .from(listMembers)
    .where(eq(listMembers.listId, sql.placeholder("listId")))
    .orderBy(asc(listMembers.position))
    .prepare(),
}));

/** The record of a list row with its members (subscribers and moderators, in their order). */
export const toListRecord = (l: MailingListRow, domain: DomainRow, members: { address: string; role: Role }[]) =>
  toMailingListRecord(l, { domain, members });
export type { MailingListRecord };

export async function getListOrThrow(db: Db, domain: DomainRow, name: string): Promise<MailingListRow> {
  const [row] = await statements(db).byName.execute({ domainId: domain.id, name });
  if (!row) throw apiError("recordNotFound", name, { resource: "mailinglist" });
  return row;
}

export async function listRecord(db: Db, domain: DomainRow, row: MailingListRow): Promise<MailingListRecord> {
  const st = listMemberStatements(db);
  const record = toListRecord(row, domain, []);
  record.accounts = await st.ordered(row.id, "subscriber");
  record.moderators = await st.ordered(row.id, "moderator");
  return record;
}

/** GET mailinglists/<domain>'s query string, parsed (500.130 naming a bad parameter). */
export const parseMailingListQuery = (query: URLSearchParams, domain: DomainRow) =>
  parsePageQuery(query, LIST_SORT_FIELDS, domain.name);

export function listMailingLists(db: Db, domain: DomainRow, query: PageQuery) {
  return readPage(db, columnsSpec("mailing_lists", MAILING_LIST_LIST_COLUMNS, domain.name), domain.id, query);
}

/** The old values of the fields of `input` (API names: the record's own), for the audit log. */
async function auditOld(
  db: Db,
  domain: DomainRow,
  row: MailingListRow,
  input: MailingListInput,
): Promise<Record<string, unknown>> {
  const st = listMemberStatements(db);
  const record = toListRecord(row, domain, []) as unknown as Record<string, unknown>;
  if (input.accounts !== undefined) record.accounts = await st.ordered(row.id, "subscriber");
  if (input.moderators !== undefined) record.moderators = await st.ordered(row.id, "moderator");
  return Object.fromEntries(Object.keys(input).map((f) => [f, record[f]]));
}

export async function createMailingList(
  db: Db,
  domain: DomainRow,
  name: string,
  body: Record<string, unknown>,
  rules: ListRules = {},
): Promise<MailingListRow> {
  const input = parseFields(body, mailingListFields, READ_ONLY_LIST_FIELDS);
  const email = `${name}@${domain.name}`;
  const values = columnValues(input);
  checkReplyTo({ replytoMode: values.replytoMode ?? 0, replytoEmail: values.replytoEmail ?? "" });
  await checkModerators(db, null, input, rules);
  return withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    await assertNameFree(tx, domain.id, name);
    const d = await effectiveLimits(tx, domain);
    if (d.mailinglistCount + 1 > d.mailinglistLimit) {
      throw apiError("mailinglistLimitReached", "name", { mailinglist_limit: d.mailinglistLimit });
    }
    const [row] = await tx
      .insert(mailingLists)
      .values({
        subscribeRequestMailBody: DEFAULT_LIST_TEMPLATES.subscribe_request_mail_body,
        subscribeRequestMailSubject: DEFAULT_LIST_TEMPLATES.subscribe_request_mail_subject,
        unsubscribeRequestMailBody: DEFAULT_LIST_TEMPLATES.unsubscribe_request_mail_body,
        unsubscribeRequestMailSubject: DEFAULT_LIST_TEMPLATES.unsubscribe_request_mail_subject,
        subscribeMailBody: DEFAULT_LIST_TEMPLATES.subscribe_mail_body,
        subscribeMailSubject: DEFAULT_LIST_TEMPLATES.subscribe_mail_subject,
        unsubscribeMailBody: DEFAULT_LIST_TEMPLATES.unsubscribe_mail_body,
        unsubscribeMailSubject: DEFAULT_LIST_TEMPLATES.unsubscribe_mail_subject,
        ...values,
        domainId: domain.id,
        name,
        email,
        searchKey: searchKey(name, input.description ?? ""),
      })
      .returning();
    // After the insert, so that the new list's own address counts as a list too.
    await checkNesting(tx, domain, null, { ...row!, ...values }, input.accounts ?? []);
    await replaceMembers(tx, row!.id, "subscriber", input.accounts);
    await replaceMembers(tx, row!.id, "moderator", input.moderators);
    await recordChange(tx, {
      domain: domain.name,
      action: "create",
      resource: "list",
      names: [name],
      changes: fieldChanges(input, null),
    });
    return row!;
  });
}

const requireAll = (db: Db, domain: DomainRow, names: string[]) =>
  findAllOrThrow(
    names,
    async (name) => (await statements(db).byName.execute({ domainId: domain.id, name }))[0],
    "mailinglist",
  );

/** A list changed by a PUT; `record()` is its record after the change (the answer to a PUT of one name). */
export interface UpdatedList {
  row: MailingListRow;
  record(): Promise<MailingListRecord>;
}

/** Plans made again after another writer moved a list's members; then the whole change is one transaction. */
const PLAN_ATTEMPTS = 3;

/**
 * A PUT of lists. A body with `accounts` is checked and diffed in slices between turns of the event loop and
 * written in one short transaction (lib/server/list-members-put.ts), so a 50,000-member list does not
 * hold the process's other requests; the answer and the audit entry are those of a single transaction.
 */
export async function updateMailingLists(
  db: Db,
  domain: DomainRow,
  names: string[],
  body: Record<string, unknown>,
  rules: ListRules = {},
): Promise<UpdatedList[]> {
  // One PUT of members per domain at a time in this process: the others wait without work, so the process's other
  // requests share the event loop with one PUT's slices, not with several.
  if (Array.isArray(body.accounts)) return oneAtATime(domain.id, () => updateLists(db, domain, names, body, rules));
  return updateLists(db, domain, names, body, rules);
}

async function updateLists(
  db: Db,
  domain: DomainRow,
  names: string[],
  body: Record<string, unknown>,
  rules: ListRules,
): Promise<UpdatedList[]> {
  const checked = Array.isArray(body.accounts) ? await checkedAddresses(body.accounts, MAX_LIST_ACCOUNTS) : undefined;
  let input: MailingListInput;
  if (checked) {
    const rest = { ...body };
    delete rest.accounts;
    const parsed: MailingListInput = {
      ...parseFields(rest, mailingListFields, READ_ONLY_LIST_FIELDS),
      accounts: checked,
    };
    // The body's own field order, for the audit entry.
    input = Object.fromEntries(
      Object.keys(body)
        .filter((k) => k in parsed)
        .map((k) => [k, parsed[k as keyof MailingListInput]]),
    );
  } else {
    input = parseFields(body, mailingListFields, READ_ONLY_LIST_FIELDS);
  }
  const values = columnValues(input);
  const accounts = input.accounts;
  if (accounts === undefined) return (await writeUpdate(db, domain, names, input, values, null, rules))!;
  for (let attempt = 0; attempt < PLAN_ATTEMPTS; attempt++) {
    const plans: MemberPlan[] = [];
    for (const row of await requireAll(db, domain, names)) plans.push(await planMembers(db, row.id, accounts));
    const done = await writeUpdate(db, domain, names, input, values, plans, rules);
    if (done) return done;
  }
  return (await writeUpdate(db, domain, names, input, values, null, rules))!;
}

/**
 * The write transaction of a PUT. With `plans` (one per name, in order) the subscribers' difference is the plan's,
 * if no list's members changed since it was made (else `undefined`: plan again); without, it is worked out here.
 */
function writeUpdate(
  db: Db,
  domain: DomainRow,
  names: string[],
  input: MailingListInput,
  values: Partial<MailingListRow>,
  plans: MemberPlan[] | null,
  rules: ListRules,
): Promise<UpdatedList[] | undefined> {
  return withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    const rows = await requireAll(tx, domain, names);
    if (plans) {
      for (const [i, r] of rows.entries()) {
        if (r.id !== plans[i]!.listId || (await memberVersion(tx, r.id)) !== plans[i]!.version) return undefined;
      }
    }
    const failures: ApiError[] = [];
    for (const [i, row] of rows.entries()) {
      try {
        checkReplyTo({ ...row, ...values });
        await checkModerators(tx, row, input, rules);
        // In the transaction: the plan's `added` is exact once its version is checked above, and what they lead to
        // is read under the same lock as the write.
        const added = plans ? plans[i]!.added : await notSubscribed(tx, row.id, input.accounts);
        await checkNesting(tx, domain, row, { ...row, ...values }, added);
      } catch (err) {
        if (!(err instanceof ApiError) || names.length === 1) throw err;
        failures.push(failureOfName(row.name, err));
      }
    }
    if (failures.length) throw withNameChildren(failures);
    let changes: Record<string, unknown>;
    if (plans) changes = await plannedChanges(tx, domain, rows, input, plans);
    else {
      const olds: Record<string, unknown>[] = [];
      for (const r of rows) olds.push(await auditOld(tx, domain, r, input));
      changes = fieldChanges(input, olds);
    }
    await recordChange(tx, { domain: domain.name, action: "update", resource: "list", names, changes });
    const updated: UpdatedList[] = [];
    for (const [i, row] of rows.entries()) {
      const set = {
        ...values,
        ...(values.description === undefined ? {} : { searchKey: searchKey(row.name, values.description) }),
      };
      const next =
        Object.keys(set).length > 0
          ? (await tx.update(mailingLists).set(set).where(eq(mailingLists.id, row.id)).returning())[0]!
          : row;
      const plan = plans?.[i];
      if (plan) await applyPlan(tx, plan);
      else await replaceMembers(tx, row.id, "subscriber", input.accounts);
      await replaceMembers(tx, row.id, "moderator", input.moderators);
      updated.push({
        row: next,
        // Read after the commit, on the shared connection.
        record: async () => {
          if (!plan) return listRecord(db, domain, next);
          const record = toListRecord(next, domain, []);
          record.accounts = plan.after;
          record.moderators = await listMemberStatements(db).ordered(next.id, "moderator");
          return record;
        },
      });
    }
    return updated;
  });
}

/** Of `addresses`, those not subscribed to the list yet (all of them for none). */
async function notSubscribed(db: Db, listId: number, addresses: string[] | undefined): Promise<string[]> {
  if (!addresses?.length) return [];
  const have = new Set((await listMemberStatements(db).current(listId, "subscriber")).map(([a]) => a));
  return addresses.filter((a) => !have.has(a));
}

/**
 * Nested lists (lib/server/resources/list-nesting.ts): the subscribers added may not lead to a list of this server,
 * nor may replyto_email while replyto_catchall is 1, when the request sets either (a list that was so already, sent
 * back whole or with another change, is still accepted, as are its subscribers: only added ones are checked).
 */
async function checkNesting(
  db: Db,
  domain: DomainRow,
  before: MailingListRow | null,
  after: Pick<MailingListRow, "replytoCatchall" | "replytoEmail">,
  added: string[],
): Promise<void> {
  await assertNoNestedList(db, domain, "accounts", added);
  const forwarded = after.replytoCatchall === 1 && after.replytoEmail !== "";
  const already = before?.replytoCatchall === 1 && before.replytoEmail === after.replytoEmail;
  if (forwarded && !already) await assertNoNestedList(db, domain, "replyto_email", [after.replytoEmail]);
}

/** The audit entry's changes when the subscribers' difference was planned: `fieldChanges`, without reading them. */
async function plannedChanges(
  db: Db,
  domain: DomainRow,
  rows: MailingListRow[],
  input: MailingListInput,
  plans: MemberPlan[],
) {
  const rest = Object.fromEntries(Object.entries(input).filter(([k]) => k !== "accounts")) as MailingListInput;
  const olds: Record<string, unknown>[] = [];
  for (const r of rows) olds.push(await auditOld(db, domain, r, rest));
  const others = fieldChanges(rest, olds);
  const accounts = input.accounts!;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (key !== "accounts") {
      if (key in others) out[key] = others[key];
    } else if (!plans.every((p) => p.same)) {
      // As fieldChanges does: the difference when one list is named, else the new list against none.
      out.accounts =
        plans.length === 1
          ? listChangeSummary(plans[0]!.oldCount, accounts.length, plans[0]!.added, plans[0]!.removed)
          : listChangeSummary(0, accounts.length, accounts, []);
    }
  }
  return out;
}

export async function deleteMailingLists(db: Db, domain: DomainRow, names: string[]): Promise<void> {
  await withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    const rows = await requireAll(tx, domain, names);
    await recordChange(tx, { domain: domain.name, action: "delete", resource: "list", names });
    await tx.delete(mailingLists).where(and(eq(mailingLists.domainId, domain.id), inArray(mailingLists.name, names)));
    await removeAliasesTo(
      tx,
      domain,
      rows.map((r) => r.email),
    );
  });
}
