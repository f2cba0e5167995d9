"use client";
// One section of the page (autoresponder, forwarding, password, anti-spam lists): its own form, its own save and
// its own feedback, so a mistake in one never blocks the others. The save flow is the editors' one (useSaveForm).
import type { FieldError, FieldValues, UseFormReturn } from "react-hook-form";
import { useSaveForm, type FormProblem } from "@/lib/client/hooks/use-save-form";
import { useSaveMyAccount } from "./use-my-account";

export function useSection<TIn extends FieldValues, TContext, TOut extends FieldValues>(
  form: UseFormReturn<TIn, TContext, TOut>,
  who: { domain: string; name: string },
  fields: readonly string[],
  options: { onSaved?: () => void; check?: (values: TOut) => FormProblem<TIn>[]; saved?: string } = {},
) {
  const save = useSaveMyAccount(who.domain, who.name);
  return useSaveForm(form, {
    fields,
    save: (values) => save.mutateAsync(values),
    check: options.check,
    onSaved: () => options.onSaved?.(),
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
