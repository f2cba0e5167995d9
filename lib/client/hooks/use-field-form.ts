"use client";
// Forms over a resource's field specs (lib/schemas/*): the same zod rules as the API, the same Polish messages
// as its error catalog, and an API error placed on the field its `source` names.
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues, Resolver, UseFormSetError } from "react-hook-form";
import { z } from "zod";
import { PanelApiError } from "@/lib/client/api";
import { errorCatalog } from "@/lib/errors/catalog";
import type { FieldSpecs } from "@/lib/schemas/fields";
import { asText } from "./list-params";

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
 * `extra` adds form-only fields (e.g. the name of a record being created) with their own schemas.
 */
export function fieldSpecResolver<T extends FieldValues>(
  specs: FieldSpecs,
  fields: readonly string[],
  lines: readonly string[] = [],
  extra: Record<string, z.ZodType> = {},
): Resolver<T> {
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) {
    const spec = specs[f];
    // Check boxes give booleans where the API's flags are 0/1.
    if (spec) shape[f] = z.preprocess(lines.includes(f) ? linesToList : flagToNumber, spec.schema.optional());
  }
  Object.assign(shape, extra);
  const inner = zodResolver(z.object(shape)) as unknown as Resolver<T>;
  // Every failing field shows its catalog message (the API's Polish text), whatever zod's own wording is.
  return async (values, context, options) => {
    const result = await inner(values, context, options);
    for (const [field, error] of Object.entries(result.errors)) {
      const spec = specs[field];
      if (spec && error && typeof error === "object") (error as { message?: string }).message = errorCatalog[spec.error].message;
    }
    return result;
  };
}

/** What to tell the user about a failed save; field errors go onto their fields, the rest is returned. */
export function applyApiError<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  knownFields: readonly string[],
): string {
  if (!(err instanceof PanelApiError)) return err instanceof Error ? err.message : String(err);
  const bodies = err.body.children?.length ? err.body.children : [err.body];
  let placed = 0;
  for (const b of bodies) {
    if (b.source && knownFields.includes(b.source)) {
      setError(b.source as never, { type: "server", message: b.message });
      placed++;
    }
  }
  return placed === bodies.length ? "" : `${err.body.message} (${err.body.code})`;
}

/** The API message with its code, for errors not tied to a form field. */
export function apiErrorText(err: unknown): string {
  if (err instanceof PanelApiError) return `${err.body.message} (${err.body.code})`;
  return err instanceof Error ? err.message : String(err);
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
