"use client";
// The autoresponder's controls, the same for the domain administrator (account editor) and the owner (My account):
// on/off, start and end dates in the panel's date control, and the reply text; with the panel's own checks.
import type { Control, FieldValues, Path, UseFormRegister } from "react-hook-form";
import { Checkbox, TextArea } from "@/components";
import type { FormProblem } from "@/lib/client/hooks/use-save-form";
import { useT, type Locale } from "@/lib/i18n";
import { DateField } from "./date-field";
import { editorSharedMessages } from "./messages";

export const AUTORESPONDER_FIELDS = [
  "autoresponder_mode",
  "autoresponder_start_date",
  "autoresponder_end_date",
  "autoresponder_body",
] as const;
const BODY_MAX = 10000;

interface AutoresponderValues {
  autoresponder_mode?: unknown;
  autoresponder_start_date?: unknown;
  autoresponder_end_date?: unknown;
  autoresponder_body?: unknown;
}

const isOn = (v: unknown) => v === true || v === 1 || v === "1";
const text = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * What the panel refuses before sending: an autoresponder switched on with no reply text (the API takes it, and the
 * mail server then answers with a generic bilingual text, DEFAULT_AUTORESPONDER_BODY; a person switching it on here
 * is asked for their own), and an end date before the start date (the API refuses it too; said here at once).
 */
export function autoresponderProblems<T extends FieldValues>(
  values: AutoresponderValues,
  locale: Locale,
): FormProblem<T>[] {
  const m = editorSharedMessages[locale];
  const problems: FormProblem<T>[] = [];
  if (isOn(values.autoresponder_mode) && text(values.autoresponder_body).trim() === "") {
    problems.push({ field: "autoresponder_body" as Path<T>, message: m.arBodyRequired });
  }
  const start = text(values.autoresponder_start_date);
  const end = text(values.autoresponder_end_date);
  if (start && end && end < start)
    problems.push({ field: "autoresponder_end_date" as Path<T>, message: m.arEndBeforeStart });
  return problems;
}

export function AutoresponderFields<T extends FieldValues>({
  control,
  register,
  err,
}: {
  control: Control<T>;
  register: UseFormRegister<T>;
  err: (field: string) => string | undefined;
}) {
  const t = useT(editorSharedMessages);
  const f = (name: (typeof AUTORESPONDER_FIELDS)[number]) => name as Path<T>;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Checkbox
        className="sm:col-span-2"
        label={t("arMode")}
        error={err("autoresponder_mode")}
        {...register(f("autoresponder_mode"))}
      />
      <DateField
        control={control}
        name={f("autoresponder_start_date")}
        label={t("arStart")}
        hint={t("arDateHint")}
        error={err("autoresponder_start_date")}
      />
      <DateField
        control={control}
        name={f("autoresponder_end_date")}
        label={t("arEnd")}
        hint={t("arDateHint")}
        error={err("autoresponder_end_date")}
      />
      <TextArea
        className="sm:col-span-2"
        rows={5}
        maxLength={BODY_MAX}
        label={t("arBody")}
        error={err("autoresponder_body")}
        {...register(f("autoresponder_body"))}
      />
    </div>
  );
}
