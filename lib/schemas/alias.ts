// The alias resource: its record field by field (the one writable field with its rule), and the list's sortable
// fields.
import { z } from "zod";
import type { AliasRow, DomainRow } from "@/db/schema";
import { isEmail, text } from "./common";
import { readOnly, resourceOf, writable, type FieldValues, type RecordField } from "./fields";

const str = z.string();

/** The alias record (its list item is the same record); read with the alias's domain row. */
export const aliasTable = {
  name: readOnly(str),
  domain: readOnly(str, (_: AliasRow, domain: DomainRow) => domain.name),
  email: readOnly(str),
  target: writable(str, { schema: text(254).trim().toLowerCase().refine(isEmail), error: "invalidAliasTarget" }),
} as const satisfies Record<string, RecordField>;

const alias = resourceOf<AliasRow, DomainRow>()(aliasTable);
export const aliasFields = alias.fields;
export const READ_ONLY_ALIAS_FIELDS = alias.readOnlyFields;
export const aliasSchema = alias.inputSchema;
export type AliasInput = FieldValues<typeof aliasFields>;

export { ALIAS_SORT_FIELDS } from "./list-columns";

// --- answers (see lib/schemas/account.ts) ---
export const aliasRecordSchema = alias.recordSchema;
export type AliasRecord = z.infer<typeof aliasRecordSchema>;
/** The record of an alias row. */
export const toAliasRecord = alias.toRecord;
export const aliasSummarySchema = aliasRecordSchema;
export type AliasSummary = AliasRecord;
