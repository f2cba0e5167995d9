// A resource's writable fields: each one's zod schema and the catalog error raised when its value is invalid.
// `parseFields` validates a request body against them and reports every bad field at once.
import { z } from "zod";
import { ApiError } from "../errors/api-error";
import type { ErrorKey } from "../errors/catalog";
import type { ItemKind, ListColumns } from "./list-columns";

export interface FieldSpec {
  schema: z.ZodType;
  error: ErrorKey;
}
export type FieldSpecs = Record<string, FieldSpec>;

/** The input type of a set of fields, for forms and services (all optional, as in a PUT). */
export type FieldValues<F extends FieldSpecs> = { [K in keyof F]?: z.output<F[K]["schema"]> };

/** One zod object schema (every field optional) for forms and the OpenAPI document. */
export const objectSchema = <F extends FieldSpecs>(fields: F) =>
  z.object(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.schema.optional()]))) as z.ZodObject<{
    [K in keyof F]: z.ZodOptional<F[K]["schema"]>;
  }>;

const MAX_FIELD_ERRORS = 100;

/**
 * Validates `body` field by field. Fields in `ignored` (read-only fields of a record sent back whole) are dropped;
 * any other unknown field is an error. Throws one ApiError naming the first bad field, with all of them as children.
 */
export function parseFields<F extends FieldSpecs>(
  body: Record<string, unknown>,
  fields: F,
  ignored: readonly string[] = [],
): FieldValues<F> {
  const out: Record<string, unknown> = {};
  const errors: ApiError[] = [];
  for (const [key, value] of Object.entries(body)) {
    // A body of a megabyte may hold tens of thousands of unknown fields: the first hundred say enough.
    if (errors.length === MAX_FIELD_ERRORS) break;
    const spec = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (!spec) {
      if (!ignored.includes(key)) errors.push(new ApiError("unknownField", { source: key }));
      continue;
    }
    const parsed = spec.schema.safeParse(value);
    if (parsed.success) out[key] = parsed.data;
    else errors.push(new ApiError(spec.error, { source: key, attributes: issueAttributes(parsed.error.issues) }));
  }
  if (errors.length) throw firstWithChildren(errors);
  return out as FieldValues<F>;
}

/** What a field's failure says beyond its code: the bad entries of a list, or the size limit it passed. */
export function issueAttributes(issues: z.core.$ZodIssue[]): Record<string, unknown> | undefined {
  for (const issue of issues) {
    if (issue.code === "custom" && issue.params) {
      const out = Object.fromEntries(Object.entries(issue.params).filter(([, v]) => !Array.isArray(v) || v.length > 0));
      if (Object.keys(out).length) return out;
    }
    if (issue.code === "too_big" && issue.origin === "array") return { max_entries: Number(issue.maximum) };
    if (issue.code === "too_big" && issue.origin === "string") return { max_length: Number(issue.maximum) };
  }
  return undefined;
}

/** The first error, carrying all of them (itself included) as children when there are several. */
export function firstWithChildren(errors: ApiError[]): ApiError {
  const first = errors[0]!;
  if (errors.length === 1) return first;
  return new ApiError(first.key, { source: first.source, attributes: first.attributes, children: errors });
}

// --- record tables ---
// A resource's record, field by field in the order the specification gives: the answer's schema, the rule of a
// writable field, and how the value is read from the row when it is not the column of the camel-cased name. The
// write fields, the read-only fields, the record's zod schema and its mapping all derive from the one table.

export interface RecordField {
  record: z.ZodType;
  write?: FieldSpec;
  /** Only a domain administrator may change it (contract §7). */
  restricted?: true;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each table types its own row and context
  read?: (row: any, ctx: any) => unknown;
}
export type RecordTable = Record<string, RecordField>;

type WriteKeys<T extends RecordTable> = { [K in keyof T]: T[K] extends { write: FieldSpec } ? K : never }[keyof T];
export type WriteSpecs<T extends RecordTable> = {
  [K in WriteKeys<T>]: T[K] extends { write: infer W extends FieldSpec } ? W : never;
};
type RestrictedKeys<T extends RecordTable> = { [K in keyof T]: T[K] extends { restricted: true } ? K : never }[keyof T];

/** A field the API answers and a PUT ignores; `read` when it is not the row's column of the camel-cased name. */
export const readOnly = <S extends z.ZodType, R extends RecordField["read"] = undefined>(
  record: S,
  read?: R,
): R extends undefined ? { record: S } : { record: S; read: R } => (read ? { record, read } : { record }) as never;

/** A writable field: what the API answers, and the rule and error of what it accepts. */
export const writable = <S extends z.ZodType, W extends FieldSpec>(record: S, write: W) => ({ record, write }) as const;

/** The writable fields (a PUT's), in record order. */
export const writeFieldsOf = <T extends RecordTable>(table: T) =>
  Object.fromEntries(Object.entries(table).flatMap(([k, f]) => (f.write ? [[k, f.write]] : []))) as WriteSpecs<T>;

/** The fields a PUT ignores, so that a record read with GET can be sent back whole. */
export const readOnlyFieldsOf = (table: RecordTable): readonly string[] =>
  Object.keys(table).filter((k) => !table[k]!.write);

export const restrictedFieldsOf = <T extends RecordTable>(table: T) =>
  Object.keys(table).filter((k) => table[k]!.restricted) as (RestrictedKeys<T> & string)[];

/** The record's zod schema (what the API answers). */
export const recordSchemaOf = <T extends RecordTable>(table: T) =>
  z.object(Object.fromEntries(Object.entries(table).map(([k, f]) => [k, f.record]))) as z.ZodObject<{
    [K in keyof T]: T[K]["record"];
  }>;

/** The row property of an API field: the field camel-cased ("sms_phone_number_1" is smsPhoneNumber1). */
export const camel = (field: string) => field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The mapping of a row (and its context) to the record, its fields in table order. */
export function recordReader<T extends RecordTable, Row, Ctx>(table: T) {
  const readers = Object.entries(table).map(([k, f]) => {
    const column = camel(k);
    return [k, f.read ?? ((row: Record<string, unknown>) => row[column])] as const;
  });
  return (row: Row, ctx: Ctx): z.infer<ReturnType<typeof recordSchemaOf<T>>> => {
    const out: Record<string, unknown> = {};
    for (const [k, read] of readers) out[k] = read(row, ctx);
    return out as never;
  };
}

/**
 * Everything a resource's table gives, for rows of type Row read with context Ctx: its writable fields, the fields
 * only a domain administrator may change, the read-only fields, the schema of a PUT's body, the record's schema and
 * the mapping of a row to its record.
 */
export const resourceOf =
  <Row, Ctx>() =>
  <T extends RecordTable>(table: T) => {
    const fields = writeFieldsOf(table);
    return {
      fields,
      restrictedFields: restrictedFieldsOf(table),
      readOnlyFields: readOnlyFieldsOf(table),
      inputSchema: objectSchema(fields as FieldSpecs) as z.ZodObject<{
        [K in keyof WriteSpecs<T>]: z.ZodOptional<WriteSpecs<T>[K]["schema"]>;
      }>,
      recordSchema: recordSchemaOf(table),
      toRecord: recordReader<T, Row, Ctx>(table),
    };
  };

const str = z.string();
const itemSchemas: Record<ItemKind, z.ZodType> = {
  text: str,
  digits: str.regex(/^\d+$/),
  flag: z.enum(["0", "1"]),
  percent: str.regex(/^\d+%$/),
};
/** A list's item schema: its fields as lib/schemas/list-columns.ts writes them. */
export const summarySchemaOf = <C extends ListColumns>(columns: C) =>
  z.object(
    Object.fromEntries(Object.entries(columns).map(([k, c]) => [k, itemSchemas[c.kind ?? "text"]])),
  ) as z.ZodObject<{
    [K in keyof C]: C[K] extends { kind: "flag" } ? z.ZodEnum<{ "0": "0"; "1": "1" }> : z.ZodString;
  }>;
