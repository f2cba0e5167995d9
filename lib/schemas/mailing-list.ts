// The mailing-list resource: its record field by field (the writable ones with their rules), the Polish default templates, and sortable fields.
import { z } from "zod";
import { addressList, flag, int, isEmail, multilineText, text } from "./common";
import type { DomainRow, MailingListRow } from "@/db/schema";
import { readOnly, resourceOf, summarySchemaOf, writable, type FieldValues, type RecordField } from "./fields";
import { MAILING_LIST_LIST_COLUMNS } from "./list-columns";

/** Placeholder replaced by the confirmation link in the two request templates. */
export const CONFIRM_LINK = "{{confirm_link}}";

const subject = () => text(255);
const body = () => multilineText(10000);
// The error's attributes name what is missing (the panel quotes it).
const requestBody = () => body().refine((s) => s.includes(CONFIRM_LINK), { params: { missing: CONFIRM_LINK } });

/**
 * What is wrong with a confirmation page address, or null: "" (no page of the list's own) or an http(s) URL
 * without white space. `scheme`: it does not start with http:// or https://; `space`: it contains white space.
 */
export function confirmUrlProblem(s: string): "scheme" | "space" | null {
  if (s === "" || /^https?:\/\/[^\s]+$/.test(s)) return null;
  return /^https?:\/\/./.test(s.trim()) && /\s/.test(s) ? "space" : "scheme";
}

/** Most subscribers a list may have (the `accounts` of one PUT). */
export const MAX_LIST_ACCOUNTS = 100000;

/** What a list's record is read from besides its row. */
export interface MailingListContext {
  domain: DomainRow;
  /** Its subscribers and moderators, in their order. */
  members: { address: string; role: "subscriber" | "moderator" }[];
}
const str = z.string();
const int_ = z.int();
const list = z.array(z.string());
const members = (role: "subscriber" | "moderator") => (_: MailingListRow, c: MailingListContext) =>
  c.members.filter((m) => m.role === role).map((m) => m.address);

/** The mailing-list record, field by field: every field, `accounts` the subscribers. */
export const mailingListTable = {
  name: readOnly(str),
  domain: readOnly(str, (_: MailingListRow, c: MailingListContext) => c.domain.name),
  email: readOnly(str),
  description: writable(str, { schema: text(255), error: "invalidListText" }),
  privacy_mode: writable(int_, { schema: int(0, 2), error: "invalidListOption" }),
  replyto_mode: writable(int_, { schema: int(0, 2), error: "invalidListOption" }),
  replyto_email: writable(str, {
    // The error's attributes say why (lib/errors/details.ts words them): the address given and what is wrong with it.
    schema: text(254)
      .trim()
      .superRefine((s, ctx) => {
        if (s === "" || (s === s.toLowerCase() && isEmail(s))) return;
        const problem = isEmail(s.toLowerCase()) ? "uppercase" : "address";
        ctx.addIssue({ code: "custom", input: s, params: { replyto_email: s, problem } });
      }),
    error: "invalidListOption",
  }),
  replyto_catchall: writable(int_, { schema: flag(), error: "invalidListOption" }),
  confirm_url: writable(str, {
    // The error's attributes say why (lib/errors/details.ts words them): the address given and what is wrong with it.
    schema: text(2000).superRefine((s, ctx) => {
      const problem = confirmUrlProblem(s);
      if (problem) ctx.addIssue({ code: "custom", input: s, params: { confirm_url: s, problem } });
    }),
    error: "invalidListOption",
  }),
  autosubscribe_enabled: writable(int_, { schema: flag(), error: "invalidListOption" }),
  subscribe_request_mail_body: writable(str, { schema: requestBody(), error: "invalidListText" }),
  subscribe_request_mail_subject: writable(str, { schema: subject(), error: "invalidListText" }),
  unsubscribe_request_mail_body: writable(str, { schema: requestBody(), error: "invalidListText" }),
  unsubscribe_request_mail_subject: writable(str, { schema: subject(), error: "invalidListText" }),
  subscribe_mail_body: writable(str, { schema: body(), error: "invalidListText" }),
  subscribe_mail_subject: writable(str, { schema: subject(), error: "invalidListText" }),
  unsubscribe_mail_body: writable(str, { schema: body(), error: "invalidListText" }),
  unsubscribe_mail_subject: writable(str, { schema: subject(), error: "invalidListText" }),
  accounts: {
    ...writable(list, { schema: addressList(isEmail, MAX_LIST_ACCOUNTS), error: "invalidListOption" }),
    read: members("subscriber"),
  },
  moderators: {
    ...writable(list, { schema: addressList(isEmail, 1000), error: "invalidListOption" }),
    read: members("moderator"),
  },
} as const satisfies Record<string, RecordField>;

const mailingList = resourceOf<MailingListRow, MailingListContext>()(mailingListTable);
export const mailingListFields = mailingList.fields;

/**
 * A rule across fields: replies sent to a given address (replyto_mode 2) need that address. The service checks
 * the stored result (a PUT may change either field); the panel's list editor checks the form with it before sending,
 * so this error shows together with the fields' own (the API answers one error per request).
 */
export function replyToAddressMissing(values: { replyto_mode?: unknown; replyto_email?: unknown }): boolean {
  return (
    Number(values.replyto_mode) === 2 &&
    (typeof values.replyto_email === "string" ? values.replyto_email : "").trim() === ""
  );
}
/** The error attributes the service gives that case (lib/errors/details.ts words them). */
export const REPLYTO_REQUIRED_ATTRIBUTES = { required_for_replyto_mode: 2 } as const;

/**
 * A moderated list (privacy_mode 1) sends only its moderators' posts and holds the rest for them: without a
 * moderator nobody could post to it. The service refuses a save that leaves a list so (lib/server/resources/
 * mailing-lists.ts); the list editor checks its form with it before sending.
 */
export function moderatorsMissing(values: { privacy_mode?: unknown; moderators?: unknown }): boolean {
  return Number(values.privacy_mode) === 1 && !(Array.isArray(values.moderators) && values.moderators.length > 0);
}
/** The error attributes the service gives that case (lib/errors/details.ts words them). */
export const MODERATORS_REQUIRED_ATTRIBUTES = { required_for_privacy_mode: 1 } as const;

export const READ_ONLY_LIST_FIELDS = mailingList.readOnlyFields;
export const mailingListSchema = mailingList.inputSchema;
export type MailingListInput = FieldValues<typeof mailingListFields>;

export { LIST_SORT_FIELDS } from "./list-columns";

/** Default Polish templates, used when a list is created without them. {{list}} is the list address. */
export const DEFAULT_LIST_TEMPLATES = {
  subscribe_request_mail_subject: "Potwierdź zapis na listę {{list}}",
  subscribe_request_mail_body:
    "Dzień dobry,\n\notrzymaliśmy prośbę o zapisanie tego adresu na listę dyskusyjną {{list}}.\n" +
    `Aby potwierdzić zapis, otwórz link:\n${CONFIRM_LINK}\n\n` +
    "Jeśli to nie Ty, zignoruj tę wiadomość.",
  unsubscribe_request_mail_subject: "Potwierdź wypisanie z listy {{list}}",
  unsubscribe_request_mail_body:
    "Dzień dobry,\n\notrzymaliśmy prośbę o wypisanie tego adresu z listy dyskusyjnej {{list}}.\n" +
    `Aby potwierdzić wypisanie, otwórz link:\n${CONFIRM_LINK}\n\n` +
    "Jeśli to nie Ty, zignoruj tę wiadomość.",
  subscribe_mail_subject: "Witamy na liście {{list}}",
  subscribe_mail_body:
    "Dzień dobry,\n\nTwój adres został zapisany na listę dyskusyjną {{list}}.\n" +
    "Wiadomości do wszystkich uczestników wysyłaj na adres {{list}}.",
  unsubscribe_mail_subject: "Wypisano z listy {{list}}",
  unsubscribe_mail_body:
    "Dzień dobry,\n\nTwój adres został wypisany z listy dyskusyjnej {{list}}.\nNie będziesz już otrzymywać jej wiadomości.",
} as const;

// --- answers (see lib/schemas/account.ts) ---
export const mailingListRecordSchema = mailingList.recordSchema;
export type MailingListRecord = z.infer<typeof mailingListRecordSchema>;
/** The record of a list row. */
export const toMailingListRecord = mailingList.toRecord;

/** The list of lists' item: numbers as strings. */
export const mailingListSummarySchema = summarySchemaOf(MAILING_LIST_LIST_COLUMNS);
export type MailingListSummary = z.infer<typeof mailingListSummarySchema>;
