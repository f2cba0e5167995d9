"use client";
// One section of the page (autoresponder, forwarding, password, anti-spam lists): its own form, its own save and
// its own feedback, so a mistake in one never blocks the others.
import { useState } from "react";
import type { FieldError, FieldValues, UseFormReturn } from "react-hook-form";
import { placeApiError } from "@/lib/client/hooks/use-field-form";
import { useLocale } from "@/lib/i18n";
import { useSaveMyAccount } from "./use-my-account";

export interface SectionStatus {
  saved: boolean;
  /** null: no error; "": errors are on the fields; otherwise the message to show. */
  error: string | null;
}

export function useSection<TIn extends FieldValues, TOut extends FieldValues>(
  form: UseFormReturn<TIn, unknown, TOut>,
  who: { domain: string; name: string },
  fields: readonly string[],
  toBody: (values: TOut) => Record<string, unknown>,
  onSaved?: () => void,
) {
  const save = useSaveMyAccount(who.domain, who.name);
  const locale = useLocale();
  const [status, setStatus] = useState<SectionStatus>({ saved: false, error: null });
  const onSubmit = form.handleSubmit(
    async (values) => {
      setStatus({ saved: false, error: null });
      try {
        await save.mutateAsync(toBody(values));
        setStatus({ saved: true, error: null });
        onSaved?.();
      } catch (err) {
        setStatus({ saved: false, error: placeApiError(err, form.setError, fields, locale) ?? "" });
      }
    },
    () => setStatus({ saved: false, error: "" }),
  );
  return { onSubmit: (e: React.FormEvent) => void onSubmit(e), status, pending: save.isPending };
}

/** The text under a field: the API's own message for a server error, else the page's explanation of the rule. */
export const errorText = (error: Pick<FieldError, "message"> & { type?: string } | undefined, explanation: string): string | undefined =>
  !error ? undefined : error.type === "server" && error.message ? error.message : explanation;
