"use client";
// The one date control of the panel: a text field in the panel's language (DD.MM.RRRR in Polish, YYYY-MM-DD in
// English), never the browser's own date picker, whose format follows the browser's locale, not the panel's.
// The form value stays YYYY-MM-DD (what the API takes), "" for no date; text that is no date is kept as typed
// so that the form's rules refuse it.
import { useState } from "react";
import { useController, type Control, type FieldValues, type Path } from "react-hook-form";
import { TextField } from "@/components";
import { formatDate } from "@/lib/errors/details";
import { useLocale, useT, type Locale } from "@/lib/i18n";
import { parseTypedDate as parseDate, readTypedDate } from "@/lib/schemas/dates";
import { editorSharedMessages } from "./messages";

const shown = (value: unknown, locale: Locale) => formatDate(typeof value === "string" ? value : "", locale);

export function DateField<T extends FieldValues>({
  control,
  name,
  label,
  hint,
  error,
  warning,
}: {
  control: Control<T>;
  name: Path<T>;
  label: string;
  hint?: string;
  /** The field's error; a rule failure of a value that is no date shows the format instead. */
  error?: string;
  /** Said under the field without marking it invalid (e.g. a date in the past). */
  warning?: string;
}) {
  const t = useT(editorSharedMessages);
  const locale = useLocale();
  const {
    field: { value, onChange, onBlur, name: fieldName, ref },
  } = useController({ control, name });
  const [text, setText] = useState(() => shown(value, locale));
  const [textLocale, setTextLocale] = useState(locale);
  // A value set from outside (a reset after saving) or a switch of language shows anew; what is being typed stays.
  if (textLocale !== locale || (parseDate(text) !== value && shown(value, locale) !== text)) {
    setTextLocale(locale);
    setText(shown(value, locale));
  }
  // A rule failure of text that is no real day says what is wrong with it rather than the rule's own message.
  const typed = readTypedDate(text);
  const dateError =
    typed.kind === "noSuchDay"
      ? t("dateNoSuchDay", { date: text.trim() })
      : typed.kind === "format"
        ? t("dateInvalid")
        : error;
  return (
    <TextField
      label={label}
      hint={
        <>
          {[hint, `${t("dateFormat")}.`].filter(Boolean).join(" ")}
          {warning && <span className="mt-1 block font-medium text-amber-900">{warning}</span>}
        </>
      }
      error={error ? dateError : undefined}
      inputMode="numeric"
      autoComplete="off"
      placeholder={locale === "pl" ? "DD.MM.RRRR" : "YYYY-MM-DD"}
      name={fieldName}
      ref={ref}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parseDate(e.target.value));
      }}
      onBlur={() => {
        // Tidy what was typed into the panel's format once the field is left.
        const parsed = readTypedDate(text);
        if (parsed.kind === "date") setText(formatDate(parsed.iso, locale));
        onBlur();
      }}
    />
  );
}
