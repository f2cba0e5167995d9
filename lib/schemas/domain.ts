// The domain resource: its record field by field, the writable ones with their rules.
import { z } from "zod";
import type { DomainRow } from "@/db/schema";
import { int, text } from "./common";
import { readOnly, resourceOf, writable, type FieldValues, type RecordField } from "./fields";
import { spamEnabledField, spamListsAndSwitches } from "./spam";

/** A domain's limits and usage as they bind: its own, or its customer's pool for each pooled limit. */
export interface EffectiveLimits {
  accountLimit: number;
  aliasLimit: number;
  mailinglistLimit: number;
  capacityLimit: number;
  accountCount: number;
  aliasCount: number;
  mailinglistCount: number;
  capacitySum: number;
}

/** What a domain's record is read from besides its row: the limits that bind it and the server's defaults. */
export interface DomainContext {
  limits: EffectiveLimits;
  defaults: { rbl: "0" | "1"; spf: "0" | "1"; greylist: "0" | "1" };
}
type Read = (d: DomainRow, c: DomainContext) => unknown;
const str = z.string();
const digits = str.regex(/^\d+$/);
const flagText = z.enum(["0", "1"]);
const ro = <S extends z.ZodType>(record: S, read: Read) => readOnly(record, read);
const limit = (key: keyof DomainContext["limits"]) => ro(digits, (_, c) => String(c.limits[key]));

/**
 * A catchall that names no target: types 1 to 3 deliver to an address (1, 2) or a domain (3), which the API refuses
 * empty (invalidCatchallAddress); the panel asks for it before sending.
 */
export const catchallTargetMissing = (type: unknown, address: unknown): boolean =>
  (asText(type) || "0") !== "0" && asText(address).trim() === "";
const asText = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");

/** The domain record: settings as numbers and lists, limits and their usage as strings (as the specification shows). */
export const domainTable = {
  name: ro(str, (d) => d.name),
  domain: ro(str, (d) => d.name),
  catchall_type: writable(z.int(), { schema: int(0, 3), error: "invalidCatchallType" }),
  catchall_address: writable(str, { schema: text(254).trim().toLowerCase(), error: "invalidCatchallAddress" }),
  spam_enabled: spamEnabledField,
  ...spamListsAndSwitches,
  // The server-wide defaults, as strings (SPAM_*_DEFAULT of the environment).
  spam_rbl_default: ro(flagText, (_, c) => c.defaults.rbl),
  spam_spf_default: ro(flagText, (_, c) => c.defaults.spf),
  spam_greylist_default: ro(flagText, (_, c) => c.defaults.greylist),
  account_limit: limit("accountLimit"),
  alias_limit: limit("aliasLimit"),
  mailinglist_limit: limit("mailinglistLimit"),
  capacity_limit: limit("capacityLimit"),
  account_limit_usage: limit("accountCount"),
  alias_limit_usage: limit("aliasCount"),
  mailinglist_limit_usage: limit("mailinglistCount"),
  capacity_limit_usage: limit("capacitySum"),
} as const satisfies Record<string, RecordField>;

const domain = resourceOf<DomainRow, DomainContext>()(domainTable);

/** The fields a domain administrator may change with PUT domains/<domain>. */
export const domainFields = domain.fields;

/** Read-only fields of the domain record, ignored in a PUT body. */
export const READ_ONLY_DOMAIN_FIELDS = domain.readOnlyFields;

export const domainUpdateSchema = domain.inputSchema;
export type DomainUpdate = FieldValues<typeof domainFields>;

// --- answers (see lib/schemas/account.ts) ---
export const domainRecordSchema = domain.recordSchema;
export type DomainRecord = z.infer<typeof domainRecordSchema>;
/** The record of a domain row. */
export const toDomainRecord = domain.toRecord;
