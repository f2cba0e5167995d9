"use client";
// The zod-free half of the form helpers (see ./use-field-form for the resolvers): an API error placed on the field
// its `source` names, records as form values, and a resolver whose zod schema is imported on first use, so a page
// whose form is only validated on submit does not ship zod in its first load.
import type { FieldValues, Path, Resolver, UseFormSetError } from "react-hook-form";
import { PanelApiError } from "@/lib/client/api";
import { errorBodyText, errorCodes, failureText } from "@/lib/client/error-text";
import type { ErrorBody } from "@/lib/errors/api-error";
import type { Locale } from "@/lib/i18n";
import { asText } from "./page-params";

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
export const listToLines = (list: unknown): string => (Array.isArray(list) ? list.join("\n") : "");

/**
 * The form field an API error belongs to: the field its `source` names, or for a name already taken (409.1,
 * whose `source` is the name itself) and a domain limit reached on creation, the form's `name` field.
 */
export function errorField(e: Pick<ErrorBody, "code" | "source">, fields: readonly string[]): string | null {
  if (e.source && fields.includes(e.source)) return e.source;
  if (e.code === "409.1" && fields.includes("name")) return "name";
  return null;
}

/** What placing a failed save's errors left over: text for the form's alert (no codes), and the codes for support. */
export interface PlacedErrors {
  text: string | null;
  codes: string[];
}

/**
 * Puts each error of a failed save on its field (errorField), in the page's language, and focuses the first.
 * `children` (one error per failing field or name) are placed one by one; without children the error itself is.
 */
export function placeApiErrors<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
  locale: Locale,
): PlacedErrors {
  if (!(err instanceof PanelApiError)) return { text: failureText(err, locale), codes: [] };
  const errors: ErrorBody[] = err.body.children?.length ? err.body.children : [err.body];
  const unplaced: string[] = [];
  let focused = false;
  for (const e of errors) {
    const field = errorField(e, fields);
    if (field) {
      setError(field as Path<T>, { type: "server", message: errorBodyText(e, locale) }, { shouldFocus: !focused });
      focused = true;
    } else unplaced.push(errorBodyText(e, locale));
  }
  return { text: unplaced.length ? unplaced.join(" ") : null, codes: errorCodes(err) };
}

/** placeApiErrors for callers that show only the text. */
export const placeApiError = <T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
  locale: Locale,
): string | null => placeApiErrors(err, setError, fields, locale).text;

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

/**
 * A resolver that imports the real one (zod and the field specs) the first time the form is validated, i.e. on the
 * first submit. `load` should be a dynamic import; call `preload` (say, when the form gets focus) to start it early.
 */
export function lazyResolver<T extends FieldValues>(
  load: () => Promise<Resolver<T, FieldFormContext>>,
): Resolver<T, FieldFormContext> & { preload: () => void } {
  let pending: Promise<Resolver<T, FieldFormContext>> | undefined;
  const get = () => {
    // A failed import (say, a network error) is tried again on the next submit.
    pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
  const resolver = async (...args: Parameters<Resolver<T, FieldFormContext>>) => (await get())(...args);
  return Object.assign(resolver, { preload: () => void get().catch(() => undefined) });
}
