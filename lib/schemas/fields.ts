// A resource's writable fields: each one's zod schema and the catalog error raised when its value is invalid.
// `parseFields` validates a request body against them and reports every bad field at once.
import { z } from "zod";
import { ApiError } from "../errors/api-error";
import type { ErrorKey } from "../errors/catalog";

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
