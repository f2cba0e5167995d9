// The alias resource: its one writable field, and the list's sortable fields.
import { z } from "zod";
import { isEmail, text } from "./common";
import { objectSchema, type FieldSpecs, type FieldValues } from "./fields";

export const aliasFields = {
  target: { schema: text(254).trim().toLowerCase().refine(isEmail), error: "invalidAliasTarget" },
} as const satisfies FieldSpecs;

export const READ_ONLY_ALIAS_FIELDS = ["name", "domain", "email"] as const;
export const aliasSchema = objectSchema(aliasFields);
export type AliasInput = FieldValues<typeof aliasFields>;

export { ALIAS_SORT_FIELDS } from "./list-columns";

// --- answers (see lib/schemas/account.ts) ---
/** The alias record; the list item is the same record. */
export const aliasRecordSchema = z.object({
  name: z.string(),
  domain: z.string(),
  email: z.string(),
  target: z.string(),
});
export type AliasRecord = z.infer<typeof aliasRecordSchema>;
export const aliasSummarySchema = aliasRecordSchema;
export type AliasSummary = AliasRecord;
