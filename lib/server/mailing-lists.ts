import "server-only";
// Mailing lists: the record with its subscribers and moderators, the list view, create, change and delete.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { domains, listMembers, mailingLists, type DomainRow, type MailingListRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { parseFields } from "@/lib/schemas/fields";
import {
  DEFAULT_LIST_TEMPLATES,
  LIST_SORT_FIELDS,
  mailingListFields,
  READ_ONLY_LIST_FIELDS,
  type MailingListInput,
  type MailingListRecord,
  type MailingListSummary,
} from "@/lib/schemas/mailing-list";
import { fieldChanges, recordChange } from "./audit";
import { listPage, parseListQuery, searchKey } from "./list-page";
import { assertNameFree, findAllOrThrow } from "./names";
import { prepared } from "./prepared";

type Role = "subscriber" | "moderator";

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

export function toListRecord(l: MailingListRow, domain: DomainRow, members: { address: string; role: Role }[]): MailingListRecord {
  return {
    name: l.name,
    domain: domain.name,
    email: l.email,
    description: l.description,
    privacy_mode: l.privacyMode,
    replyto_mode: l.replytoMode,
    replyto_email: l.replytoEmail,
    replyto_catchall: l.replytoCatchall,
    confirm_url: l.confirmUrl,
    autosubscribe_enabled: l.autosubscribeEnabled,
    subscribe_request_mail_body: l.subscribeRequestMailBody,
    subscribe_request_mail_subject: l.subscribeRequestMailSubject,
    unsubscribe_request_mail_body: l.unsubscribeRequestMailBody,
    unsubscribe_request_mail_subject: l.unsubscribeRequestMailSubject,
    subscribe_mail_body: l.subscribeMailBody,
    subscribe_mail_subject: l.subscribeMailSubject,
    unsubscribe_mail_body: l.unsubscribeMailBody,
    unsubscribe_mail_subject: l.unsubscribeMailSubject,
    accounts: members.filter((m) => m.role === "subscriber").map((m) => m.address),
    moderators: members.filter((m) => m.role === "moderator").map((m) => m.address),
  };
}
export type { MailingListRecord };

export function getListOrThrow(db: Db, domain: DomainRow, name: string): MailingListRow {
  const row = statements(db).byName.get({ domainId: domain.id, name });
  if (!row) throw apiError("recordNotFound", name, { resource: "mailinglist" });
  return row;
}

export function listRecord(db: Db, domain: DomainRow, row: MailingListRow): MailingListRecord {
  return toListRecord(row, domain, statements(db).members.all({ listId: row.id }));
}

interface SummaryRow {
  name: string;
  email: string;
  description: string;
  privacy_mode: number;
  replyto_mode: number;
  autosubscribe_enabled: number;
}

export function listMailingLists(db: Db, domain: DomainRow, query: URLSearchParams) {
  return listPage<SummaryRow>(
    db,
    {
      table: "mailing_lists",
      columns: "name, email, description, privacy_mode, replyto_mode, autosubscribe_enabled",
      sortColumns: {
        name: "name",
        email: "name",
        domain: "name",
        description: "description",
        privacy_mode: "privacy_mode",
        replyto_mode: "replyto_mode",
        autosubscribe_enabled: "autosubscribe_enabled",
      },
      toItem: (r): MailingListSummary => ({
        email: r.email,
        description: r.description,
        privacy_mode: String(r.privacy_mode),
        replyto_mode: String(r.replyto_mode),
        autosubscribe_enabled: String(r.autosubscribe_enabled),
        name: r.name,
        domain: domain.name,
      }),
    },
    domain.id,
    parseListQuery(query, LIST_SORT_FIELDS, domain.name),
  );
}

/** Column values of a validated body (templates, members and cross-field rules handled by the callers). */
function columnValues(input: MailingListInput): Partial<MailingListRow> {
  const v: Partial<MailingListRow> = {
    description: input.description,
    privacyMode: input.privacy_mode,
    replytoMode: input.replyto_mode,
    replytoEmail: input.replyto_email,
    replytoCatchall: input.replyto_catchall,
    confirmUrl: input.confirm_url,
    autosubscribeEnabled: input.autosubscribe_enabled,
    subscribeRequestMailBody: input.subscribe_request_mail_body,
    subscribeRequestMailSubject: input.subscribe_request_mail_subject,
    unsubscribeRequestMailBody: input.unsubscribe_request_mail_body,
    unsubscribeRequestMailSubject: input.unsubscribe_request_mail_subject,
    subscribeMailBody: input.subscribe_mail_body,
    subscribeMailSubject: input.subscribe_mail_subject,
    unsubscribeMailBody: input.unsubscribe_mail_body,
    unsubscribeMailSubject: input.unsubscribe_mail_subject,
  };
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
}

/** The old values of the fields of `input` (API names: the record's own), for the audit log. */
function auditOld(db: Db, domain: DomainRow, row: MailingListRow, input: MailingListInput): Record<string, unknown> {
  const record = listRecord(db, domain, row) as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.keys(input).map((f) => [f, record[f]]));
}

/** replyto_mode 2 needs an address to offer. */
function checkReplyTo(row: Pick<MailingListRow, "replytoMode" | "replytoEmail">): void {
  if (row.replytoMode === 2 && row.replytoEmail === "") throw apiError("invalidListOption", "replyto_email", { required_for_replyto_mode: 2 });
}

function replaceMembers(db: Db, listId: number, role: Role, addresses: string[] | undefined): void {
  if (addresses === undefined) return;
  db.delete(listMembers).where(and(eq(listMembers.listId, listId), eq(listMembers.role, role))).run();
  for (let i = 0; i < addresses.length; i += 1000) {
    const chunk = addresses.slice(i, i + 1000).map((address, j) => ({ listId, role, address, position: i + j }));
    db.insert(listMembers).values(chunk).run();
  }
}

export function createMailingList(db: Db, domain: DomainRow, name: string, body: Record<string, unknown>): MailingListRow {
  const input = parseFields(body, mailingListFields, READ_ONLY_LIST_FIELDS);
  const email = `${name}@${domain.name}`;
  const values = columnValues(input);
  checkReplyTo({ replytoMode: values.replytoMode ?? 0, replytoEmail: values.replytoEmail ?? "" });
  return db.transaction(
    () => {
      assertNameFree(db, domain.id, name);
      const d = db.select().from(domains).where(eq(domains.id, domain.id)).get()!;
      if (d.mailinglistCount + 1 > d.mailinglistLimit) {
        throw apiError("mailinglistLimitReached", "name", { mailinglist_limit: d.mailinglistLimit });
      }
      const row = db
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
        .returning()
        .get();
      replaceMembers(db, row.id, "subscriber", input.accounts);
      replaceMembers(db, row.id, "moderator", input.moderators);
      recordChange(db, { domain: domain.name, action: "create", resource: "list", names: [name], changes: fieldChanges(input, null) });
      return row;
    },
    { behavior: "immediate" },
  );
}

const requireAll = (db: Db, domain: DomainRow, names: string[]) =>
  findAllOrThrow(names, (name) => statements(db).byName.get({ domainId: domain.id, name }), "mailinglist");

export function updateMailingLists(
  db: Db,
  domain: DomainRow,
  names: string[],
  body: Record<string, unknown>,
): MailingListRow[] {
  const input = parseFields(body, mailingListFields, READ_ONLY_LIST_FIELDS);
  const values = columnValues(input);
  return db.transaction(
    () => {
      const rows = requireAll(db, domain, names);
      recordChange(db, {
        domain: domain.name,
        action: "update",
        resource: "list",
        names,
        changes: fieldChanges(input, rows.map((r) => auditOld(db, domain, r, input))),
      });
      return rows.map((row) => {
        checkReplyTo({ ...row, ...values });
        const set = { ...values, ...(values.description === undefined ? {} : { searchKey: searchKey(row.name, values.description) }) };
        const next =
          Object.keys(set).length > 0
            ? db.update(mailingLists).set(set).where(eq(mailingLists.id, row.id)).returning().get()
            : row;
        replaceMembers(db, row.id, "subscriber", input.accounts);
        replaceMembers(db, row.id, "moderator", input.moderators);
        return next;
      });
    },
    { behavior: "immediate" },
  );
}

export function deleteMailingLists(db: Db, domain: DomainRow, names: string[]): void {
  db.transaction(
    () => {
      requireAll(db, domain, names);
      recordChange(db, { domain: domain.name, action: "delete", resource: "list", names });
      db.delete(mailingLists).where(and(eq(mailingLists.domainId, domain.id), inArray(mailingLists.name, names))).run();
    },
    { behavior: "immediate" },
  );
}
