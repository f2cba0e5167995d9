// Counts in the panel's languages: Polish has three forms ("1 konto", "3 konta", "10 kont"), chosen by
// Intl.PluralRules, never by hand-written rules or "konto(a)".
import type { Locale } from "./index";

/** The forms of one noun: Polish needs one, few and many; English one and other. */
export type PluralForms = Record<Locale, Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }>;

const rules = new Map<Locale, Intl.PluralRules>();

/** "10 kont": the count with the noun's form for it in `locale`. */
export function countOf(locale: Locale, n: number, forms: PluralForms): string {
  let rule = rules.get(locale);
  if (!rule) rules.set(locale, (rule = new Intl.PluralRules(locale)));
  const byLocale = forms[locale];
  return `${n.toLocaleString(locale === "pl" ? "pl-PL" : "en-GB")} ${byLocale[rule.select(n)] ?? byLocale.other}`;
}
