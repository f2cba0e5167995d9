// The alias resource: its one writable field, and the list's sortable fields.
import { isEmail, text } from "./common";
import { objectSchema, type FieldSpecs, type FieldValues } from "./fields";

export const aliasFields = {
  target: { schema: text(254).trim().toLowerCase().refine(isEmail), error: "invalidAliasTarget" },
} as const satisfies FieldSpecs;

export const READ_ONLY_ALIAS_FIELDS = ["name", "domain", "email"] as const;
export const aliasSchema = objectSchema(aliasFields);
export type AliasInput = FieldValues<typeof aliasFields>;

export const ALIAS_SORT_FIELDS = ["name", "email", "domain", "target"] as const;
