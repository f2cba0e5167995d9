// The pages' names, in one place: each page's heading reads its name from here (through its messages), and the
// browser tab's title is the same name in the root layout's pattern, "<page> · Panel poczty" ("Logowanie · Panel
// poczty", "Konto jan.nowak@example.com · Panel poczty"), in the request's language (pageMetadata in ./server).
import type { Messages } from "./index";

export type PageTitleKey =
  "login" | "accounts" | "account" | "aliases" | "lists" | "list" | "domain" | "dns" | "audit" | "me" | "notFound";

/** The panel's name, after every page's (and alone where a page has none), and its description. */
export const PANEL_NAME: Messages<"name" | "description"> = {
  pl: { name: "Panel poczty", description: "Administracja kontami pocztowymi" },
  en: { name: "Mail panel", description: "Mail account administration" },
};

export const PAGE_TITLES: Messages<PageTitleKey> = {
  pl: {
    login: "Logowanie",
    accounts: "Konta pocztowe",
    account: "Konto {email}",
    aliases: "Aliasy",
    lists: "Listy dyskusyjne",
    list: "Lista {email}",
    domain: "Ustawienia domeny",
    dns: "Rekordy DNS domeny",
    audit: "Dziennik zmian",
    me: "Moje konto",
    notFound: "Nie ma takiej strony",
  },
  en: {
    login: "Sign in",
    accounts: "Mail accounts",
    account: "Account {email}",
    aliases: "Aliases",
    lists: "Mailing lists",
    list: "List {email}",
    domain: "Domain settings",
    dns: "Domain DNS records",
    audit: "Audit log",
    me: "My account",
    notFound: "Page not found",
  },
};
