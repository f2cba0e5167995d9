// Counted nouns in the panel's language, chosen by Intl.PluralRules: Polish has three forms ("1 przekierowanie",
// "3 przekierowania", "5 przekierowań"), English two. No React: error texts and components use it alike.
import type { Locale } from "./index";
import { formatNumber } from "./number";

/** The forms of one noun: `one`, `few` (Polish 2-4, 22-24 ...), `many` (Polish 5-21 ...), `other` (fractions, English plural). */
export interface PluralForms {
  one: string;
  few?: string;
  many?: string;
  other: string;
}

const rules = new Map<Locale, Intl.PluralRules>();

/** The form of `forms` for the count `n` in `locale`. */
export function pluralForm(locale: Locale, n: number, forms: PluralForms): string {
  let r = rules.get(locale);
  if (!r) rules.set(locale, (r = new Intl.PluralRules(locale)));
  const category = r.select(n);
  return (
    (category === "one" ? forms.one : category === "few" ? forms.few : category === "many" ? forms.many : undefined) ??
    forms.other
  );
}

/** "3 przekierowania", "15 000 znaków", "15,000 characters": the count, grouped as the language groups it, and its noun. */
export const counted = (locale: Locale, n: number, forms: PluralForms) =>
  `${formatNumber(n, locale)} ${pluralForm(locale, n, forms)}`;

/** A noun's forms in each of the panel's languages. */
export type Noun = Record<Locale, PluralForms>;

/** "10 kont" / "10 accounts": the count and its noun in `locale`. */
export const countOf = (locale: Locale, n: number, noun: Noun) => counted(locale, n, noun[locale]);
