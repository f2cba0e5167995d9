"use client";
// Subscribers or moderators of a list: add one or paste many (each checked as an address), filter, remove.
// Large lists show the first matches only, so a list of thousands stays quick to render.
import { useId, useMemo, useState, type Ref } from "react";
import { Address, Button, TextField } from "@/components";
import { Field } from "@/components/field-parts";
import { useLocale, useT, type Messages } from "@/lib/i18n";
import { countOf, type Noun } from "@/lib/i18n/plural";
import { parsePastedAddresses } from "@/lib/client/pasted-addresses";

const SHOWN = 200;
/** "1 adres", "2 adresy", "5 adresów". */
const ADDRESS_NOUN: Noun = {
  pl: { one: "adres", few: "adresy", many: "adresów", other: "adresu" },
  en: { one: "address", other: "addresses" },
};

const messages: Messages<
  "add" | "paste" | "pasteHint" | "filter" | "remove" | "count" | "more" | "invalid" | "added" | "none" | "removeAll"
> = {
  // No-break spaces keep the one-letter words "w" and "z" off the end of a line, and the example entry whole.
  pl: {
    add: "Dodaj",
    paste: "Dodaj adresy: {what}",
    pasteHint:
      "Jeden lub wiele adresów: w\u00a0wierszach albo oddzielonych przecinkami lub średnikami, także w\u00a0postaci „Jan\u00a0Nowak\u00a0<jan@example.com>” (z\u00a0programu pocztowego).",
    filter: "Filtruj: {what}",
    remove: "Usuń {address}",
    count: "{n}",
    more: "Pokazano {shown} z {n}. Zawęź filtr, aby zobaczyć resztę.",
    invalid: "Pominięto nieprawidłowe adresy: {list}",
    added: "Dodano: {n}.",
    none: "Brak adresów.",
    removeAll: "Usuń wszystkie pasujące",
  },
  en: {
    add: "Add",
    paste: "Add addresses: {what}",
    pasteHint:
      "One or many addresses: one a line or separated by commas or semicolons, also as “Jan\u00a0Nowak\u00a0<jan@example.com>” (from a mail program).",
    filter: "Filter: {what}",
    remove: "Remove {address}",
    count: "{n}",
    more: "Showing {shown} of {n}. Narrow the filter to see the rest.",
    invalid: "Skipped invalid addresses: {list}",
    added: "Added: {n}.",
    none: "No addresses.",
    removeAll: "Remove all matching",
  },
};

export function MemberEditor({
  what,
  values,
  onChange,
  error,
  inputRef,
}: {
  what: string;
  values: string[];
  onChange: (next: string[]) => void;
  /** The members' error (an API or form rule): shown on the add field, which a failed save focuses (inputRef). */
  error?: string;
  inputRef?: Ref<HTMLTextAreaElement>;
}) {
  const t = useT(messages);
  const locale = useLocale();
  const [text, setText] = useState("");
  const [filter, setFilter] = useState("");
  const [report, setReport] = useState("");
  const statusId = useId();
  const matching = useMemo(() => {
    const f = filter.trim().toLowerCase();
    return f ? values.filter((v) => v.includes(f)) : values;
  }, [values, filter]);

  const add = () => {
    // Entries end at line breaks, commas and semicolons, never at a space: "Jan Nowak <jan@example.com>" is one.
    const { addresses, invalid: bad } = parsePastedAddresses(text);
    const present = new Set(values);
    const fresh = addresses.filter((e) => !present.has(e));
    if (fresh.length) onChange([...values, ...fresh]);
    setText(bad.join("\n"));
    setReport([t("added", { n: fresh.length }), bad.length ? t("invalid", { list: bad.join(", ") }) : ""].join(" "));
  };

  return (
    <div className="space-y-3">
      {/* The add button sits beside the field at every width; the hint and any error run under both. */}
      <Field label={t("paste", { what })} hint={t("pasteHint")} error={error}>
        {(control) => (
          <div className="flex items-start gap-2">
            <textarea
              {...control}
              className={`${control.className} min-w-0 flex-1`}
              rows={2}
              ref={inputRef}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  add();
                }
              }}
            />
            <Button variant="secondary" onClick={add} disabled={!text.trim()} className="shrink-0">
              {t("add")}
            </Button>
          </div>
        )}
      </Field>
      <p id={statusId} role="status" className="min-h-5 text-sm text-gray-800">
        {report}
      </p>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <TextField
          className="min-w-0 flex-1 basis-60"
          type="search"
          label={t("filter", { what })}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <p className="text-sm text-gray-700">{t("count", { n: countOf(locale, values.length, ADDRESS_NOUN) })}</p>
      </div>
      {matching.length === 0 ? (
        <p className="text-sm text-gray-700">{t("none")}</p>
      ) : (
        <ul
          className="max-h-80 divide-y divide-gray-200 overflow-y-auto rounded border border-gray-300"
          aria-label={what}
        >
          {matching.slice(0, SHOWN).map((address) => (
            <li key={address} className="flex items-center justify-between gap-2 px-3 py-1.5 text-sm">
              <span className="min-w-0">
                <Address text={address} />
              </span>
              <Button
                variant="ghost"
                className="min-h-8 shrink-0 px-2"
                aria-label={t("remove", { address })}
                onClick={() => onChange(values.filter((v) => v !== address))}
              >
                ×
              </Button>
            </li>
          ))}
        </ul>
      )}
      {matching.length > SHOWN && (
        <p className="text-sm text-gray-700">{t("more", { shown: SHOWN, n: matching.length })}</p>
      )}
      {filter && matching.length > 0 && (
        <Button
          variant="ghost"
          onClick={() => {
            const gone = new Set(matching);
            onChange(values.filter((v) => !gone.has(v)));
          }}
        >
          {t("removeAll")}
        </Button>
      )}
    </div>
  );
}
