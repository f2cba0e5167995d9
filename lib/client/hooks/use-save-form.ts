"use client";
// The one save flow of every editor (account, alias, list, domain settings, the owner's sections): validate with
// the form's resolver and the panel-only rules, send, then say how it went. A failed save puts each API error on its
// field (aria-invalid, focus on the first) and keeps what fits no field for the form's alert, codes apart for a
// details element. Sending again first clears the old messages. While the form holds unsaved changes, leaving the
// page asks first (lib/client/use-unsaved-guard.ts).
import { useEffect, useRef, useState } from "react";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { useLocale, useT } from "@/lib/i18n";
import { focusFirstInvalid } from "../reveal-field";
import { useUnsavedChangesGuard } from "../use-unsaved-guard";
import { placeApiErrors } from "./field-form";

/** The outcome of the last save: a success, or an error text with the codes behind it. */
export type SaveOutcome = { ok: boolean; text: string; codes?: string[] } | null;

/** A rule the panel checks before sending (the API does not refuse it, or not so precisely). */
export interface FormProblem<T extends FieldValues> {
  field: Path<T>;
  message: string;
}

export interface SaveFormOptions<TIn extends FieldValues, TOut, R> {
  /** The fields an API error may land on (its `source`). */
  fields: readonly string[];
  save: (values: TOut) => Promise<R>;
  /** Panel-only rules, checked after the resolver and before sending. */
  check?: (values: TOut) => FormProblem<TIn>[];
  onSaved?: (result: R, values: TOut) => void;
  /**
   * The label of a field as the form shows it: when given, a save the form's checks stop lists every field to
   * correct by name in the outcome (each field shows its own reason), not just "correct the marked fields".
   */
  label?: (field: string) => string;
  /** Texts of the outcome; defaults are the panel's generic ones. */
  texts?: { saved?: string; failed?: (error: string) => string };
  /** Ask before leaving with unsaved changes (default true). */
  guard?: boolean;
}

const messages = {
  pl: {
    saved: "Zapisano zmiany.",
    fixFields: "Popraw zaznaczone pola i zapisz ponownie.",
    fixListed: "Do poprawienia ({count}): {fields}. Przy każdym polu jest powód.",
    failed: "Nie zapisano: {error}",
    leave: "Masz niezapisane zmiany. Opuścić stronę i je utracić?",
  },
  en: {
    saved: "Changes saved.",
    fixFields: "Correct the marked fields and save again.",
    fixListed: "To correct ({count}): {fields}. Each field says why.",
    failed: "Not saved: {error}",
    leave: "You have unsaved changes. Leave the page and lose them?",
  },
};

/** Asks before leaving a form with unsaved changes; the create forms, which do not save through useSaveForm, too. */
export function useLeaveGuard(formState: { isDirty: boolean; isSubmitting: boolean }, enabled = true): void {
  const t = useT(messages);
  useUnsavedChangesGuard(enabled && formState.isDirty && !formState.isSubmitting, t("leave"));
}

export function useSaveForm<TIn extends FieldValues, TContext, TOut extends FieldValues, R = unknown>(
  form: UseFormReturn<TIn, TContext, TOut>,
  options: SaveFormOptions<TIn, TOut, R>,
) {
  const t = useT(messages);
  const locale = useLocale();
  const [outcome, setOutcome] = useState<SaveOutcome>(null);
  const { isDirty, isSubmitting } = form.formState;
  useLeaveGuard({ isDirty, isSubmitting }, options.guard !== false);
  // The form element of the last submit: after a failed save, focus goes to its first invalid field in page order
  // (react-hook-form focuses in the order fields registered), once the messages are drawn, above any sticky bar.
  const formElement = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    const el = formElement.current;
    if (!outcome || outcome.ok || !el) return;
    // After the frame that draws the messages, and after react-hook-form's own focus, which it repeats in a
    // timeout once the invalid handler has run.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => focusFirstInvalid(el))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [outcome]);

  const submit = form.handleSubmit(
    async (values) => {
      const problems = options.check?.(values) ?? [];
      if (problems.length) {
        problems.forEach((p, i) =>
          form.setError(p.field, { type: "panel", message: p.message }, { shouldFocus: i === 0 }),
        );
        setOutcome({ ok: false, text: t("fixFields") });
        return;
      }
      try {
        const result = await options.save(values);
        // What was sent is saved: no longer "unsaved changes" (the record read again resets the form later).
        form.reset(form.getValues());
        setOutcome({ ok: true, text: options.texts?.saved ?? t("saved") });
        options.onSaved?.(result, values);
      } catch (err) {
        const placed = placeApiErrors(err, form.setError, options.fields, locale);
        const failed = options.texts?.failed ?? ((error: string) => t("failed", { error }));
        setOutcome({ ok: false, text: placed.text ? failed(placed.text) : t("fixFields"), codes: placed.codes });
      }
    },
    (errors) => {
      // Fields in the order the form lists them (options.fields), then any other.
      const failing = Object.keys(errors).sort((a, b) => rank(options.fields, a) - rank(options.fields, b));
      const label = options.label;
      if (!label || !failing.length) return setOutcome({ ok: false, text: t("fixFields") });
      const fields = failing.map((f) => (locale === "pl" ? `„${label(f)}”` : `"${label(f)}"`)).join(", ");
      setOutcome({ ok: false, text: t("fixListed", { count: failing.length, fields }) });
    },
  );

  return {
    /** The form's onSubmit: clears the last answer's messages, then validates and sends. */
    onSubmit: (e?: React.BaseSyntheticEvent) => {
      const target: unknown = e?.currentTarget ?? e?.target;
      formElement.current = target instanceof HTMLFormElement ? target : null;
      form.clearErrors();
      setOutcome(null);
      void submit(e);
    },
    outcome,
    /** Forget the outcome (e.g. when the form is closed). */
    clearOutcome: () => setOutcome(null),
    submitting: isSubmitting,
    dirty: isDirty,
  };
}

const rank = (fields: readonly string[], f: string) => {
  const i = fields.indexOf(f);
  return i < 0 ? fields.length : i;
};
