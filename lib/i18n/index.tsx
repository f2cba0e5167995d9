"use client";
// The panel's two languages: Polish by default, English on request. Each page or component keeps its own
// messages object ({ pl: {...}, en: {...} }) beside it and reads it with useT(messages).
import { createContext, useContext, type ReactNode } from "react";

export type Locale = "pl" | "en";
export const LOCALES: readonly Locale[] = ["pl", "en"];
export const LOCALE_COOKIE = "locale";

export type Messages<K extends string> = Record<Locale, Record<K, string>>;

const LocaleContext = createContext<Locale>("pl");

export function LocaleProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return <LocaleContext.Provider value={locale}>{children}</LocaleContext.Provider>;
}

export const useLocale = () => useContext(LocaleContext);

/** `t(key, { n: 3 })` replaces {n} in the message. */
export function useT<K extends string>(messages: Messages<K>) {
  const dict = messages[useLocale()];
  return (key: K, vars?: Record<string, string | number>) =>
    vars ? dict[key].replace(/\{(\w+)\}/g, (_, v: string) => String(vars[v] ?? `{${v}}`)) : dict[key];
}
