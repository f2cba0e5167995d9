// Texts of the audit log page (rendered on the server, so a plain object per language).
import { PAGE_TITLES } from "@/lib/i18n/page-titles";
import type { Locale } from "@/lib/i18n";
import { fieldValue } from "@/lib/i18n/field-words";

export const auditMessages = {
  pl: {
    title: PAGE_TITLES.pl.audit,
    intro:
      "Kto, kiedy i skąd zmienił coś w domenie {domain}: przez panel, API lub narzędzie operatora. Hasła nigdy nie są zapisywane.",
    search: "Szukaj w dzienniku",
    searchHint: "Adres osoby, adres IP, nazwa konta, aliasu lub listy, pole.",
    when: "Kiedy",
    who: "Kto",
    what: "Co",
    changes: "Zmienione pola (było → jest)",
    empty: "Dziennik jest pusty.",
    emptySearch: "Żaden wpis nie pasuje do „{search}”.",
    more: "i {n} innych",
    pager: "Stronicowanie",
    page: "Strona {page} z {pages} · {total}",
    prev: "Poprzednia",
    next: "Następna",
    via: { api: "API", panel: "panel", cli: "narzędzie operatora" },
    actions: { create: "utworzenie", update: "zmiana", delete: "usunięcie" },
    resources: {
      domain: "domena",
      account: "konto",
      alias: "alias",
      list: "lista",
      account_security: "logowanie dwuetapowe",
    },
    changed: "zmienione (wartość nie jest zapisywana)",
    added: "dodane",
    removed: "usunięte",
    count: "liczba",
    various: "różne",
    empty_value: "(puste)",
  },
  en: {
    title: PAGE_TITLES.en.audit,
    intro:
      "Who changed what in {domain}, when and from where: through the panel, the API or the operator's tool. Passwords are never recorded.",
    search: "Search the log",
    searchHint: "Who, IP address, account, alias or list name, field.",
    when: "When",
    who: "Who",
    what: "What",
    changes: "Fields changed (was → is)",
    empty: "The log is empty.",
    emptySearch: 'No entry matches "{search}".',
    more: "and {n} more",
    pager: "Pagination",
    page: "Page {page} of {pages} · {total}",
    prev: "Previous",
    next: "Next",
    via: { api: "API", panel: "panel", cli: "operator's tool" },
    actions: { create: "created", update: "changed", delete: "deleted" },
    resources: {
      domain: "domain",
      account: "account",
      alias: "alias",
      list: "list",
      account_security: "two-step sign-in",
    },
    changed: "changed (the value is not recorded)",
    added: "added",
    removed: "removed",
    count: "count",
    various: "various",
    empty_value: "(empty)",
  },
} as const;

function show(field: string, raw: unknown, locale: Locale) {
  const v = fieldValue(field, raw, locale);
  return v === null || v === undefined || v === ""
    ? auditMessages[locale].empty_value
    : typeof v === "string"
      ? v
      : JSON.stringify(v);
}

/** One field's change as text: "old → new" in the panel's words, a secret's "changed", a list's counts and entries. */
export function changeText(field: string, change: unknown, locale: Locale): string {
  const t = auditMessages[locale];
  const c = (change ?? {}) as Record<string, unknown>;
  if (c.changed === true) return t.changed;
  if ("new_count" in c) {
    const parts = [`${t.count}: ${String(c.old_count)} → ${String(c.new_count)}`];
    if (Array.isArray(c.added) && c.added.length) parts.push(`${t.added}: ${c.added.join(", ")}`);
    if (Array.isArray(c.removed) && c.removed.length) parts.push(`${t.removed}: ${c.removed.join(", ")}`);
    return parts.join("; ");
  }
  // A created record's field: its value only.
  if (c.old === null && !("old_values" in c)) return show(field, c.new, locale);
  const old =
    "old_values" in c
      ? `${t.various} (${(c.old_values as unknown[]).map((v) => show(field, v, locale)).join(", ")})`
      : show(field, c.old, locale);
  return `${old} → ${show(field, c.new, locale)}`;
}
