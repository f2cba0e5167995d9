"use client";
// Forms over a resource's field specs (lib/schemas/*): the same zod rules as the API, the same messages as its error
// catalog (in the page's language), and an API error placed on the field its `source` names.
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues, Path, Resolver, UseFormSetError } from "react-hook-form";
import { z } from "zod";
import { PanelApiError } from "@/lib/client/api";
import { catalogText, errorBodyText, failureText } from "@/lib/client/error-text";
import type { ErrorBody } from "@/lib/errors/api-error";
import type { Locale } from "@/lib/i18n";
import type { FieldSpecs } from "@/lib/schemas/fields";
import { asText } from "./list-params";

/** What a form passes as useForm's `context` so the resolver speaks the page's language: `{ locale }`. */
export interface FieldFormContext {
  locale: Locale;
}

/** Text areas edit array fields one entry a line; blank lines are dropped. */
export const linesToList = (text: unknown): unknown =>
  typeof text === "string"
    ? text
        .split(/[\n,;]+/)
        .map((s) => s.trim())
        .filter(Boolean)
    : text;
const flagToNumber = (v: unknown): unknown => (typeof v === "boolean" ? Number(v) : v);
export const listToLines = (list: unknown): string => (Array.isArray(list) ? list.join("\n") : "");

/**
 * A resolver for the chosen fields of a spec. `lines` names the array fields edited as text, one entry a line.
 * `extra` adds form-only fields (e.g. the name of a record being created) with their own schemas and catalog errors.
 * Pass `context: { locale }` (FieldFormContext) to useForm; without it the messages are Polish.
 */
export function fieldSpecResolver<T extends FieldValues>(
  specs: FieldSpecs,
  fields: readonly string[],
  lines: readonly string[] = [],
  extra: FieldSpecs = {},
): Resolver<T, FieldFormContext> {
  const all: FieldSpecs = { ...specs, ...extra };
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) {
    const spec = specs[f];
    // Check boxes give booleans where the API's flags are 0/1.
    if (spec) shape[f] = z.preprocess(lines.includes(f) ? linesToList : flagToNumber, spec.schema.optional());
  }
  for (const [f, spec] of Object.entries(extra)) shape[f] = spec.schema;
  const inner = zodResolver(z.object(shape)) as unknown as Resolver<T, FieldFormContext>;
  // Every failing field shows its catalog message (the API's own text for that rule), whatever zod's wording is.
  return async (values, context, options) => {
    const result = await inner(values, context, options);
    for (const [field, error] of Object.entries(result.errors)) {
      const spec = all[field];
      if (spec && error && typeof error === "object") (error as { message?: string }).message = catalogText(spec.error, context?.locale ?? "pl");
    }
    return result;
  };
}

/**
 * Puts each error of a failed save on the field its `source` names, in the page's language, and focuses the first.
 * Returns the text of what could not be placed on a field (with its code), or null when everything landed on fields.
 * `children` (one error per failing field or name) are placed one by one; without children the error itself is.
 */
export function placeApiError<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
  locale: Locale,
): string | null {
  if (!(err instanceof PanelApiError)) return failureText(err, locale);
  const errors: ErrorBody[] = err.body.children?.length ? err.body.children : [err.body];
  const unplaced: string[] = [];
  let focused = false;
  for (const e of errors) {
    if (e.source && fields.includes(e.source)) {
      setError(e.source as Path<T>, { type: "server", message: errorBodyText(e, locale) }, { shouldFocus: !focused });
      focused = true;
    } else unplaced.push(`${errorBodyText(e, locale)} (${e.code})`);
  }
  return unplaced.length ? unplaced.join(" ") : null;
}

/** A record as form values: arrays as lines, `flags` as check-box booleans, everything else as text. */
export function recordToForm(
  record: Record<string, unknown>,
  fields: readonly string[],
  lines: readonly string[] = [],
  flags: readonly string[] = [],
): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const f of fields) {
    const v = record[f];
    out[f] = lines.includes(f) ? listToLines(v) : flags.includes(f) ? Number(v) === 1 : asText(v);
  }
  return out;
}
