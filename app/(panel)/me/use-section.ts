"use client";
// One section of the page (autoresponder, forwarding, password, anti-spam lists): its own form, its own save and
// its own feedback, so a mistake in one never blocks the others. The save flow is the editors' one (useSaveForm).
import type { FieldError, FieldValues, UseFormReturn } from "react-hook-form";
import { useSaveForm, type FormProblem } from "@/lib/client/hooks/use-save-form";
import { useSaveMyAccount, type MyAccountRecord } from "./use-my-account";

/**
 * `values`: the section's form values of a record (its defaults). After a save the section shows them for the record
 * the server answered with, what it stored (addresses lowercased, say), not what was typed: before, "B@Example.NET"
 * stayed on screen until a reload showed "b@example.net".
 */
export function useSection<TIn extends FieldValues, TContext, TOut extends FieldValues>(
  form: UseFormReturn<TIn, TContext, TOut>,
  who: { domain: string; name: string },
  fields: readonly string[],
  options: {
    values?: (record: MyAccountRecord) => TIn;
    onSaved?: () => void;
    check?: (values: TOut) => FormProblem<TIn>[];
    saved?: string;
  } = {},
) {
  const save = useSaveMyAccount(who.domain, who.name);
  return useSaveForm(form, {
    fields,
    save: (values) => save.mutateAsync(values),
    check: options.check,
    onSaved: (record) => {
      if (options.values) form.reset(options.values(record));
      options.onSaved?.();
    },
    texts: { saved: options.saved },
  });
}

/** The text under a field: the API's or the panel's own message, else the page's explanation of the rule. */
export const errorText = (
  error: (Pick<FieldError, "message"> & { type?: string }) | undefined,
  explanation: string,
): string | undefined =>
  !error
    ? undefined
    : (error.type === "server" || error.type === "panel") && error.message
      ? error.message
      : explanation;
