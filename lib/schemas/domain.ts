// The domain resource: fields a domain administrator may change with PUT domains/<domain>.
import { z } from "zod";
import { int, flag, spamList, text, triState } from "./common";
import { objectSchema, type FieldSpecs, type FieldValues } from "./fields";

export const domainFields = {
  catchall_type: { schema: int(0, 3), error: "invalidCatchallType" },
  catchall_address: { schema: text(254).trim().toLowerCase(), error: "invalidCatchallAddress" },
  spam_enabled: { schema: flag(), error: "invalidSpamEnabled" },
  spam_white_list: { schema: spamList(), error: "invalidSpamListEntry" },
  spam_black_list: { schema: spamList(), error: "invalidSpamListEntry" },
  spam_greylist_whitelist: { schema: spamList(), error: "invalidSpamListEntry" },
  spam_spf_whitelist: { schema: spamList(), error: "invalidSpamListEntry" },
  spam_rbl_whitelist: { schema: spamList(), error: "invalidSpamListEntry" },
  spam_rbl_enabled: { schema: triState(), error: "invalidSpamSwitch" },
  spam_spf_enabled: { schema: triState(), error: "invalidSpamSwitch" },
  spam_greylist_enabled: { schema: triState(), error: "invalidSpamSwitch" },
} as const satisfies FieldSpecs;

/** Read-only fields of the domain record, ignored in a PUT body. */
export const READ_ONLY_DOMAIN_FIELDS = [
  "name",
  "domain",
  "spam_rbl_default",
  "spam_spf_default",
  "spam_greylist_default",
  "account_limit",
  "alias_limit",
  "mailinglist_limit",
  "capacity_limit",
  "account_limit_usage",
  "alias_limit_usage",
  "mailinglist_limit_usage",
  "capacity_limit_usage",
] as const;

export const domainUpdateSchema = objectSchema(domainFields);
export type DomainUpdate = FieldValues<typeof domainFields>;

// --- answers (see lib/schemas/account.ts) ---
const str = z.string();
const digits = str.regex(/^\d+$/);
/** The domain record: settings as numbers and lists, limits and their usage as strings (as the specification shows). */
export const domainRecordSchema = z.object({
  name: str,
  domain: str,
  catchall_type: z.int(),
  catchall_address: str,
  spam_enabled: z.int(),
  spam_white_list: z.array(str),
  spam_black_list: z.array(str),
  spam_greylist_whitelist: z.array(str),
  spam_spf_whitelist: z.array(str),
  spam_rbl_whitelist: z.array(str),
  spam_rbl_enabled: z.int(),
  spam_spf_enabled: z.int(),
  spam_greylist_enabled: z.int(),
  // The server-wide defaults, as strings (SPAM_*_DEFAULT of the environment).
  spam_rbl_default: z.enum(["0", "1"]),
  spam_spf_default: z.enum(["0", "1"]),
  spam_greylist_default: z.enum(["0", "1"]),
  account_limit: digits,
  alias_limit: digits,
  mailinglist_limit: digits,
  capacity_limit: digits,
  account_limit_usage: digits,
  alias_limit_usage: digits,
  mailinglist_limit_usage: digits,
  capacity_limit_usage: digits,
});
export type DomainRecord = z.infer<typeof domainRecordSchema>;
