import "server-only";
// The request's locale on the server: the `locale` cookie set by the language switch, Polish otherwise.
import { cookies } from "next/headers";
import { LOCALE_COOKIE, LOCALES, type Locale } from "./index";

export async function requestLocale(): Promise<Locale> {
  const value = (await cookies()).get(LOCALE_COOKIE)?.value;
  return LOCALES.includes(value as Locale) ? (value as Locale) : "pl";
}
