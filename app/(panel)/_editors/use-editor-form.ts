"use client";
// The form of a postmaster's editor over one record: the API's field rules in the page's language, the form reset
// to the record whenever it is fetched again, the one save flow, and each field's error text.
import { useEffect } from "react";
import { useForm, type DefaultValues, type FieldValues, type Resolver } from "react-hook-form";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import type { FieldFormContext } from "@/lib/client/hooks/use-field-form";
import { useSaveForm, type SaveFormOptions } from "@/lib/client/hooks/use-save-form";

export function useEditorForm<V extends FieldValues, R>(
  resolver: Resolver<V, FieldFormContext>,
  defaults: V,
  options: SaveFormOptions<V, V, R>,
) {
  const { locale } = useErrorText();
  const form = useForm<V, FieldFormContext>({
    resolver,
    context: { locale },
    defaultValues: defaults as DefaultValues<V>,
  });
  const { reset, formState } = form;
  useEffect(() => reset(defaults), [defaults, reset]);
  const { onSubmit, outcome } = useSaveForm(form, options);
  const errors = formState.errors as Record<string, { message?: string } | undefined>;
  const err = (field: string) => errors[field]?.message;
  return { form, onSubmit, outcome, err };
}
