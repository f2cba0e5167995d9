// The account resource: writable fields with their rules, restricted fields, and the list's sortable fields.
import { z } from "zod";
import {
  addressList,
  flag,
  int,
  isEmail,
  multilineText,
  oneOf,
  text,
  optionalDate,
  passwordSchema,
  spamList,
  triState,
} from "./common";
import { objectSchema, type FieldSpecs, type FieldValues } from "./fields";

const SMS_OPERATORS = [0, 11, 12, 13, 21, 22, 23, 31, 32, 33, 51] as const;
// A number is stored without the spaces and dashes people write it with ("+48 530-111-222" as "+48530111222").
const smsPhone = () =>
  text(254)
    .trim()
    .toLowerCase()
    .transform((s) => (s.includes("@") ? s : s.replace(/[\s-]/g, "")))
    .refine((s) => s === "" || /^\+?\d{6,15}$/.test(s) || isEmail(s));
const smsText = () => text(64);

export const accountFields = {
  description: { schema: text(48), error: "invalidDescription" },
  capacity: { schema: int(1, 1048576), error: "invalidCapacity" },
  // "" keeps the password unchanged (a record read with GET carries "").
  password: { schema: z.union([z.literal(""), passwordSchema()]), error: "invalidPassword" },
  password_retype: { schema: text(100), error: "passwordMismatch" },
  usage_notification_level: { schema: int(0, 100), error: "invalidNotificationLevel" },
  expiration_date: { schema: optionalDate(), error: "invalidExpirationDate" },
  keep_mail: { schema: flag(), error: "invalidFlag" },
  forwards: { schema: addressList(isEmail, 50), error: "invalidForward" },
  forward_limit: { schema: int(0, 1000), error: "invalidPerAccountLimit" },
  aliases: { schema: addressList(isEmail, 1000), error: "invalidAliases" },
  alias_limit: { schema: int(0, 1000), error: "invalidPerAccountLimit" },
  inbox_delete_after: { schema: int(0, 3650), error: "invalidDeleteAfter" },
  trash_delete_after: { schema: int(0, 3650), error: "invalidDeleteAfter" },
  spam_enabled: { schema: flag(), error: "invalidSpamEnabled" },
  spam_rule: { schema: z.enum(["tag", "move"]), error: "invalidSpamRule" },
  spam_hits: {
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
  },
  spam_delete_after: { schema: int(0, 3650), error: "invalidDeleteAfter" },
  spam_white_list: { schema: spamList(), error: "invalidSpamListEntry" },
  spam_black_list: { schema: spamList(), error: "invalidSpamListEntry" },
  spam_greylist_whitelist: { schema: spamList(), error: "invalidSpamListEntry" },
  spam_spf_whitelist: { schema: spamList(), error: "invalidSpamListEntry" },
  spam_rbl_whitelist: { schema: spamList(), error: "invalidSpamListEntry" },
  spam_rbl_enabled: { schema: triState(), error: "invalidSpamSwitch" },
  spam_spf_enabled: { schema: triState(), error: "invalidSpamSwitch" },
  spam_greylist_enabled: { schema: triState(), error: "invalidSpamSwitch" },
  sms_phone_number_1: { schema: smsPhone(), error: "invalidSmsText" },
  sms_phone_number_2: { schema: smsPhone(), error: "invalidSmsText" },
  sms_login_1: { schema: smsText(), error: "invalidSmsText" },
  sms_login_2: { schema: smsText(), error: "invalidSmsText" },
  sms_password_1: { schema: smsText(), error: "invalidSmsText" },
  sms_password_2: { schema: smsText(), error: "invalidSmsText" },
  sms_operator_1: { schema: oneOf(SMS_OPERATORS), error: "invalidSmsOption" },
  sms_operator_2: { schema: oneOf(SMS_OPERATORS), error: "invalidSmsOption" },
  sms_send_to: { schema: int(0, 1), error: "invalidSmsOption" },
  sms_cnt: { schema: int(0, 3), error: "invalidSmsOption" },
  autoresponder_mode: { schema: flag(), error: "invalidAutoresponderMode" },
  autoresponder_start_date: { schema: optionalDate(), error: "invalidAutoresponder" },
  autoresponder_end_date: { schema: optionalDate(), error: "invalidAutoresponder" },
  autoresponder_body: { schema: multilineText(10000), error: "invalidAutoresponder" },
  blocked: { schema: flag(), error: "invalidFlag" },
} as const satisfies FieldSpecs;

/** Fields only a domain administrator may change (contract §7). */
export const RESTRICTED_ACCOUNT_FIELDS = [
  "description",
  "capacity",
  "expiration_date",
  "forward_limit",
  "alias_limit",
  "blocked",
] as const;

/** Fields of the account record that a PUT ignores, so a record read with GET can be sent back whole. */
export const READ_ONLY_ACCOUNT_FIELDS = [
  "name",
  "domain",
  "email",
  "usage",
  "usage_bytes",
  "creation_date",
  "last_auth_date",
  "last_auth_ip",
  "forward_email_1",
  "forward_email_2",
  "forward_email_3",
  "alias_creation_priv",
  "extra_rules",
  "spam_rbl_default",
  "spam_spf_default",
  "spam_greylist_default",
] as const;

export const accountUpdateSchema = objectSchema(accountFields);
export type AccountUpdate = FieldValues<typeof accountFields>;

// Re-exported from a zod-free module: the account table imports it in the browser without pulling in zod.
export { ACCOUNT_SORT_FIELDS } from "./account-sort";

// --- answers ---
// What the API sends back: the services build these types (lib/server/resources/accounts.ts), the OpenAPI document describes
// them, the panel's hooks read them, and e2e/api checks real answers against them.
const str = z.string();
const list = z.array(z.string());

/** The account record (GET, POST, PUT of one name). `usage` is a percentage, `usage_bytes` what the mail server reports. */
export const accountRecordSchema = z.object({
  name: str,
  domain: str,
  email: str,
  description: str,
  capacity: z.int(),
  usage: z.int(),
  usage_bytes: z.int().min(0),
  password: str,
  password_retype: str,
  usage_notification_level: z.int(),
  expiration_date: str,
  creation_date: str,
  last_auth_date: str,
  last_auth_ip: str,
  keep_mail: z.int(),
  forwards: list,
  forward_email_1: str,
  forward_email_2: str,
  forward_email_3: str,
  forward_limit: z.int(),
  aliases: list,
  alias_limit: z.int(),
  alias_creation_priv: z.int(),
  inbox_delete_after: z.int(),
  trash_delete_after: z.int(),
  spam_enabled: z.int(),
  spam_rule: z.enum(["tag", "move"]),
  spam_hits: z.number(),
  spam_delete_after: z.int(),
  spam_white_list: list,
  spam_black_list: list,
  spam_greylist_whitelist: list,
  spam_spf_whitelist: list,
  spam_rbl_whitelist: list,
  spam_rbl_enabled: z.int(),
  spam_spf_enabled: z.int(),
  spam_greylist_enabled: z.int(),
  spam_rbl_default: z.int(),
  spam_spf_default: z.int(),
  spam_greylist_default: z.int(),
  sms_phone_number_1: str,
  sms_phone_number_2: str,
  sms_login_1: str,
  sms_login_2: str,
  sms_password_1: str,
  sms_password_2: str,
  sms_operator_1: z.int(),
  sms_operator_2: z.int(),
  sms_send_to: z.int(),
  sms_cnt: z.int(),
  autoresponder_mode: z.int(),
  autoresponder_start_date: str,
  autoresponder_end_date: str,
  autoresponder_body: str,
  blocked: z.int(),
  extra_rules: z.int(),
});
export type AccountRecord = z.infer<typeof accountRecordSchema>;

/** The account list's item: numbers as strings (specification), `usage` with a % suffix, `usage_bytes` digits. */
export const accountSummarySchema = z.object({
  email: str,
  creation_date: str,
  expiration_date: str,
  last_auth_date: str,
  capacity: str.regex(/^\d+$/),
  description: str,
  blocked: z.enum(["0", "1"]),
  name: str,
  domain: str,
  usage: str.regex(/^\d+%$/),
  usage_bytes: str.regex(/^\d+$/),
});
export type AccountSummary = z.infer<typeof accountSummarySchema>;
