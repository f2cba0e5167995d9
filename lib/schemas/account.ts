// The account resource: its record field by field (answer schema, writable fields with their rules, restricted
// fields, how each is read from the row), and the list's item.
import { z } from "zod";
import type { AccountRow, DomainRow } from "@/db/schema";
import { addressList, flag, int, isEmail, multilineText, oneOf, text, optionalDate, passwordSchema } from "./common";
import { readOnly, resourceOf, summarySchemaOf, writable as w, type FieldValues, type RecordField } from "./fields";
import { ACCOUNT_LIST_COLUMNS } from "./list-columns";
import { effectiveSwitch, spamEnabledField, spamListsAndSwitches, type SpamDefaults } from "./spam";

const SMS_OPERATORS = [0, 11, 12, 13, 21, 22, 23, 31, 32, 33, 51] as const;
/** Forwarding addresses an account may have (Dovecot's sieve_max_redirects is set to it, sieve_max_actions above it). */
export const MAX_FORWARDS = 50;
// A number is stored without the spaces and dashes people write it with ("+48 530-111-222" as "+48530111222").
const smsPhone = () =>
  text(254)
    .trim()
    .toLowerCase()
    .transform((s) => (s.includes("@") ? s : s.replace(/[\s-]/g, "")))
    .refine((s) => s === "" || /^\+?\d{6,15}$/.test(s) || isEmail(s));
const smsText = () => text(64);

/** What an account's record is read from besides its row. */
export interface AccountContext {
  domain: DomainRow;
  /** The addresses of the domain's aliases to the account (contract §7: only its own domain's). */
  aliases: string[];
  defaults: SpamDefaults;
}
type Read = (a: AccountRow, c: AccountContext) => unknown;
const read = (fn: Read) => fn;

const str = z.string();
const list = z.array(z.string());
const int_ = z.int();
const ro = <S extends z.ZodType>(record: S, r?: Read) => readOnly(record, r);
const hidden = read(() => "");
// What -1 means for this account: the domain's value, or where that is -1 too, the server's (the setting the policy
// service applies, lib/mailserver/policy/spam-policy.ts).
const spamDefault = (key: "spamRblEnabled" | "spamSpfEnabled" | "spamGreylistEnabled", def: keyof SpamDefaults) =>
  read((_, c) => effectiveSwitch(undefined, c.domain[key], c.defaults[def]));

/** The account record (GET, POST, PUT of one name), in the specification's order. `usage` is a percentage,
 * `usage_bytes` what the mail server reports. */
export const accountTable = {
  name: ro(str),
  domain: ro(
    str,
    read((_, c) => c.domain.name),
  ),
  email: ro(str),
  description: { ...w(str, { schema: text(48), error: "invalidDescription" }), restricted: true },
  capacity: { ...w(int_, { schema: int(1, 1048576), error: "invalidCapacity" }), restricted: true },
  usage: ro(
    int_,
    read((a) => a.usagePercent),
  ),
  usage_bytes: ro(z.int().min(0)),
  // "" keeps the password unchanged (a record read with GET carries "").
  password: {
    ...w(str, { schema: z.union([z.literal(""), passwordSchema()]), error: "invalidPassword" }),
    read: hidden,
  },
  password_retype: { ...w(str, { schema: text(100), error: "passwordMismatch" }), read: hidden },
  usage_notification_level: w(int_, { schema: int(0, 100), error: "invalidNotificationLevel" }),
  expiration_date: { ...w(str, { schema: optionalDate(), error: "invalidExpirationDate" }), restricted: true },
  creation_date: ro(str),
  last_auth_date: ro(str),
  last_auth_ip: ro(str),
  keep_mail: w(int_, { schema: flag(), error: "invalidFlag" }),
  forwards: w(list, { schema: addressList(isEmail, MAX_FORWARDS), error: "invalidForward" }),
  forward_email_1: ro(
    str,
    read((a) => a.forwards[0] ?? ""),
  ),
  forward_email_2: ro(
    str,
    read((a) => a.forwards[1] ?? ""),
  ),
  forward_email_3: ro(
    str,
    read((a) => a.forwards[2] ?? ""),
  ),
  forward_limit: { ...w(int_, { schema: int(0, 1000), error: "invalidPerAccountLimit" }), restricted: true },
  aliases: {
    ...w(list, { schema: addressList(isEmail, 1000), error: "invalidAliases" }),
    read: read((_, c) => c.aliases),
  },
  alias_limit: { ...w(int_, { schema: int(0, 1000), error: "invalidPerAccountLimit" }), restricted: true },
  alias_creation_priv: ro(int_),
  inbox_delete_after: w(int_, { schema: int(0, 3650), error: "invalidDeleteAfter" }),
  trash_delete_after: w(int_, { schema: int(0, 3650), error: "invalidDeleteAfter" }),
  spam_enabled: spamEnabledField,
  spam_rule: w(z.enum(["tag", "move"]), { schema: z.enum(["tag", "move"]), error: "invalidSpamRule" }),
  spam_hits: w(z.number(), {
    schema: z
      .union([
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d+(\.\d+)?$/)
          .transform(Number),
      ])
      .refine((v) => [2, 5, 7, 9].includes(v)),
    error: "invalidSpamHits",
  }),
  spam_delete_after: w(int_, { schema: int(0, 3650), error: "invalidDeleteAfter" }),
  ...spamListsAndSwitches,
  spam_rbl_default: ro(int_, spamDefault("spamRblEnabled", "rbl")),
  spam_spf_default: ro(int_, spamDefault("spamSpfEnabled", "spf")),
  spam_greylist_default: ro(int_, spamDefault("spamGreylistEnabled", "greylist")),
  sms_phone_number_1: w(str, { schema: smsPhone(), error: "invalidSmsText" }),
  sms_phone_number_2: w(str, { schema: smsPhone(), error: "invalidSmsText" }),
  sms_login_1: w(str, { schema: smsText(), error: "invalidSmsText" }),
  sms_login_2: w(str, { schema: smsText(), error: "invalidSmsText" }),
  // Stored encrypted and read back as "" (like password).
  sms_password_1: { ...w(str, { schema: smsText(), error: "invalidSmsText" }), read: hidden },
  sms_password_2: { ...w(str, { schema: smsText(), error: "invalidSmsText" }), read: hidden },
  sms_operator_1: w(int_, { schema: oneOf(SMS_OPERATORS), error: "invalidSmsOption" }),
  sms_operator_2: w(int_, { schema: oneOf(SMS_OPERATORS), error: "invalidSmsOption" }),
  sms_send_to: w(int_, { schema: int(0, 1), error: "invalidSmsOption" }),
  sms_cnt: w(int_, { schema: int(0, 3), error: "invalidSmsOption" }),
  autoresponder_mode: w(int_, { schema: flag(), error: "invalidAutoresponderMode" }),
  autoresponder_start_date: w(str, { schema: optionalDate(), error: "invalidAutoresponder" }),
  autoresponder_end_date: w(str, { schema: optionalDate(), error: "invalidAutoresponder" }),
  autoresponder_body: w(str, { schema: multilineText(10000), error: "invalidAutoresponder" }),
  blocked: { ...w(int_, { schema: flag(), error: "invalidFlag" }), restricted: true },
  extra_rules: ro(int_),
} as const satisfies Record<string, RecordField>;

const account = resourceOf<AccountRow, AccountContext>()(accountTable);

/** The writable fields with their rules. */
export const accountFields = account.fields;

/** Fields only a domain administrator may change (contract §7). */
export const RESTRICTED_ACCOUNT_FIELDS = account.restrictedFields;

/** Fields of the account record that a PUT ignores, so a record read with GET can be sent back whole. */
export const READ_ONLY_ACCOUNT_FIELDS = account.readOnlyFields;

export const accountUpdateSchema = account.inputSchema;
export type AccountUpdate = FieldValues<typeof accountFields>;

// Re-exported from a zod-free module: the account table imports it in the browser without pulling in zod.
export { ACCOUNT_SORT_FIELDS } from "./list-columns";

// --- answers ---
// What the API sends back: the services build these types (lib/server/resources/account-record.ts), the OpenAPI
// document describes them, the panel's hooks read them, and e2e/api checks real answers against them.

export const accountRecordSchema = account.recordSchema;
export type AccountRecord = z.infer<typeof accountRecordSchema>;
/** The record of an account row. */
export const toAccountRecord = account.toRecord;

/** The account list's item: numbers as strings (specification), `usage` with a % suffix, `usage_bytes` digits. */
export const accountSummarySchema = summarySchemaOf(ACCOUNT_LIST_COLUMNS);
export type AccountSummary = z.infer<typeof accountSummarySchema>;
