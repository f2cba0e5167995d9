import "server-only";
// The request's locale on the server: the `locale` cookie set by the language switch, Polish otherwise.
// Values are not imported from ./index: it is a "use client" module, whose exports are client references here.
import { cookies } from "next/headers";
import type { Metadata } from "next";
import type { Locale } from "./index";
import { PAGE_TITLES, PANEL_NAME, type PageTitleKey } from "./page-titles";

const COOKIE = "locale"; // LOCALE_COOKIE of ./index
const SUPPORTED: readonly string[] = ["pl", "en"]; // LOCALES of ./index

export async function requestLocale(): Promise<Locale> {
  const value = (await cookies()).get(COOKIE)?.value;
  return value && SUPPORTED.includes(value) ? (value as Locale) : "pl";
}

/** The tab title of a page (the root layout adds the panel's name), for its generateMetadata. */
export async function pageMetadata(page: PageTitleKey, vars: { email?: string } = {}): Promise<Metadata> {
  const title = PAGE_TITLES[await requestLocale()][page];
  return { title: vars.email === undefined ? title : title.replace("{email}", vars.email) };
}

/** The root layout's: the panel's name alone, and after each page's name. */
export async function panelMetadata(): Promise<Metadata> {
  const { name, description } = PANEL_NAME[await requestLocale()];
  return { title: { default: name, template: `%s · ${name}` }, description };
}
