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
  prepareRemovals,
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
import { nestedAddresses, nestedListError, type NestedAddress, type NestingField } from "./list-nesting";

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
  // Before the transaction (list-nesting.ts); thrown where the check stood, so other errors keep their precedence.
  const [nested] = await nestingErrors(
    db,
    domain,
    [
      {
        before: null,
        after: {
          privacyMode: values.privacyMode ?? 0,
          replytoCatchall: values.replytoCatchall ?? 0,
          replytoEmail: values.replytoEmail ?? "",
        },
        subscribers: input.accounts ?? [],
        moderators: input.moderators ?? [],
      },
    ],
    email,
  );
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
    if (nested) throw nested;
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
  if (accounts === undefined) {
    const rows = await requireAll(db, domain, names);
    const nesting = await updateNesting(db, domain, rows, input, values, () => []);
    return (await writeUpdate(db, domain, names, input, values, null, rules, nesting))!;
  }
  for (let attempt = 0; attempt < PLAN_ATTEMPTS; attempt++) {
    const plans: MemberPlan[] = [];
    const rows = await requireAll(db, domain, names);
    for (const row of rows) plans.push(await planMembers(db, row.id, accounts));
    await prepareRemovals(db, plans);
    const nesting = await updateNesting(db, domain, rows, input, values, (i) => plans[i]!.added);
    const done = await writeUpdate(db, domain, names, input, values, plans, rules, nesting);
    if (done) return done;
  }
  const rows = await requireAll(db, domain, names);
  const added = await Promise.all(rows.map((r) => notSubscribed(db, r.id, accounts)));
  const nesting = await updateNesting(db, domain, rows, input, values, (i) => added[i]!);
  return (await writeUpdate(db, domain, names, input, values, null, rules, nesting))!;
}

/**
 * The nesting errors of a PUT, per list id, worked out before its transaction from the lists as read then (the rule
 * is advisory: list-nesting.ts): the subscribers each list gains (`added(i)`), the moderators it gains, and its
 * replyto_email when the request makes it forwarded; the addresses of all the lists are walked once.
 */
async function updateNesting(
  db: Db,
  domain: DomainRow,
  rows: MailingListRow[],
  input: MailingListInput,
  values: Partial<MailingListRow>,
  added: (i: number) => string[],
): Promise<Map<number, ApiError>> {
  const checks: NestingCheck[] = [];
  for (const [i, row] of rows.entries()) {
    let moderators: string[] = [];
    if (input.moderators?.length) {
      const have = new Set(await listMemberStatements(db).ordered(row.id, "moderator"));
      moderators = input.moderators.filter((m) => !have.has(m));
    }
    checks.push({ before: row, after: { ...row, ...values }, subscribers: added(i), moderators });
  }
  const errors = await nestingErrors(db, domain, checks);
  return new Map(rows.flatMap((r, i) => (errors[i] ? [[r.id, errors[i]] as const] : [])));
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
  nesting: Map<number, ApiError>,
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
    for (const row of rows) {
      try {
        checkReplyTo({ ...row, ...values });
        await checkModerators(tx, row, input, rules);
        // Checked before the transaction (updateNesting); thrown here so that other errors keep their precedence.
        const nested = nesting.get(row.id);
        if (nested) throw nested;
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

interface NestingCheck {
  before: MailingListRow | null;
  after: Pick<MailingListRow, "privacyMode" | "replytoCatchall" | "replytoEmail">;
  /** Subscribers and moderators the request adds. */
  subscribers: string[];
  moderators: string[];
}

/**
 * Nested lists (lib/server/resources/list-nesting.ts), for one or several lists at once (one walk of all their
 * addresses): the subscribers and moderators added may not lead to a list of this server, nor may replyto_email
 * while the list forwards to it (privacy_mode 1 and replyto_catchall 1: lib/lists/admission.ts), when the request
 * makes it so (a list that was so already, sent back whole or with another change, is still accepted, as are its
 * members: only added ones are checked). Each check's first error (accounts, replyto_email, moderators), or none.
 */
async function nestingErrors(
  db: Db,
  domain: DomainRow,
  checks: NestingCheck[],
  newList?: string,
): Promise<(ApiError | undefined)[]> {
  const forwardsTo = (l: NestingCheck["after"] | null) =>
    l && l.privacyMode === 1 && l.replytoCatchall === 1 && l.replytoEmail !== "" ? l.replytoEmail : undefined;
  const replyto = checks.map((c) => {
    const to = forwardsTo(c.after);
    return to !== undefined && forwardsTo(c.before) !== to ? to : undefined;
  });
  const all = checks.flatMap((c, i) => [...c.subscribers, ...c.moderators, ...(replyto[i] ? [replyto[i]] : [])]);
  const nested = new Map((await nestedAddresses(db, domain, [...new Set(all)], newList)).map((n) => [n.address, n]));
  if (nested.size === 0) return checks.map(() => undefined);
  const of = (addresses: string[]) => addresses.flatMap((a) => nested.get(a) ?? []);
  return checks.map((c, i) => {
    const fields: [NestingField, NestedAddress[]][] = [
      ["accounts", of(c.subscribers)],
      ["replyto_email", of(replyto[i] ? [replyto[i]] : [])],
      ["moderators", of(c.moderators)],
    ];
    const [field, found] = fields.find(([, n]) => n.length > 0) ?? [];
    return field ? nestedListError(field, found!) : undefined;
  });
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
