import "server-only";
// The request's locale on the server: the `locale` cookie set by the language switch, Polish otherwise.
// Values are not imported from ./index: it is a "use client" module, whose exports are client references here.
import { cookies } from "next/headers";
import type { Locale } from "./index";

const COOKIE = "locale"; // LOCALE_COOKIE of ./index
const SUPPORTED: readonly string[] = ["pl", "en"]; // LOCALES of ./index

export async function requestLocale(): Promise<Locale> {
  const value = (await cookies()).get(COOKIE)?.value;
  return value && SUPPORTED.includes(value) ? (value as Locale) : "pl";
}
