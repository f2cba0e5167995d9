"use client";
// Forms over a resource's field specs (lib/schemas/*): the same zod rules as the API, the same messages as its error
// catalog (in the page's language). The zod-free helpers live in ./field-form (a page can load zod lazily, only
// when a form is first validated); they are re-exported here.
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues, Resolver } from "react-hook-form";
import { z } from "zod";
import { catalogText } from "@/lib/client/error-text";
import { errorDetailText } from "@/lib/errors/details";
import { issueAttributes, type FieldSpec, type FieldSpecs } from "@/lib/schemas/fields";
import type { Locale } from "@/lib/i18n";
import { linesToList, type FieldFormContext } from "./field-form";

/** A form-only field: a schema, its catalog error, and the form's own wording where the catalog's is another's. */
export type FormFieldSpec = FieldSpec & { text?: Record<Locale, string> };

export {
  lazyResolver,
  linesToList,
  listToLines,
  placeApiError,
  placeApiErrors,
  recordToForm,
  type FieldFormContext,
} from "./field-form";

const flagToNumber = (v: unknown): unknown => (typeof v === "boolean" ? Number(v) : v);

/**
 * A resolver for the chosen fields of a spec. `lines` names the array fields edited as text, one entry a line.
 * `extra` adds form-only fields (e.g. the name of a record being created) with their own schemas and catalog errors.
 * Pass `context: { locale }` (FieldFormContext) to useForm; without it the messages are Polish.
 */
export function fieldSpecResolver<T extends FieldValues>(
  specs: FieldSpecs,
  fields: readonly string[],
  lines: readonly string[] = [],
  extra: Record<string, FormFieldSpec> = {},
): Resolver<T, FieldFormContext> {
  const all: Record<string, FormFieldSpec> = { ...specs, ...extra };
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) {
    const spec = specs[f];
    // Check boxes give booleans where the API's flags are 0/1.
    if (spec) shape[f] = z.preprocess(lines.includes(f) ? linesToList : flagToNumber, spec.schema.optional());
  }
  for (const [f, spec] of Object.entries(extra)) shape[f] = spec.schema;
  const inner = zodResolver(z.object(shape)) as unknown as Resolver<T, FieldFormContext>;
  // Every failing field shows its catalog message (the API's own text for that rule), whatever zod's wording is,
  // and what the API would add to it: the bad lines quoted, the missing placeholder, the length allowed.
  return async (values, context, options) => {
    const result = await inner(values, context, options);
    const locale = context?.locale ?? "pl";
    for (const [field, error] of Object.entries(result.errors)) {
      const spec = all[field];
      if (!spec || !error || typeof error !== "object") continue;
      const parsed = shape[field]?.safeParse((values as Record<string, unknown>)[field]);
      const detail = parsed && !parsed.success ? errorDetailText(issueAttributes(parsed.error.issues), locale) : "";
      (error as { message?: string }).message = [spec.text?.[locale] ?? catalogText(spec.error, locale), detail]
        .filter(Boolean)
        .join(" ");
    }
    return result;
  };
}
