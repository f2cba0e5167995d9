// The domain resource: fields a domain administrator may change with PUT domains/<domain>.
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
