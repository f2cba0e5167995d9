import { PAGE_TITLES } from "@/lib/i18n/page-titles";
import type { Messages } from "@/lib/i18n";

type Key =
  | "title"
  | "intro"
  | "loading"
  | "loadFailed"
  | "retry"
  | "catchall"
  | "catchallDesc"
  | "catchall_type"
  | "type0"
  | "type1"
  | "type2"
  | "type3"
  | "rule0"
  | "rule1"
  | "rule2"
  | "rule3"
  | "catchall_address"
  | "addressNone"
  | "address1"
  | "address2"
  | "address3"
  | "addressRequired"
  | "antispam"
  | "antispamDesc"
  | "spam_enabled"
  | "lists"
  | "listsDesc"
  | "limits"
  | "limitsDesc"
  | "accounts"
  | "aliases"
  | "mailinglists"
  | "capacity"
  | "save"
  | "saved"
  | "saveFailed"
  | "fixFields"
  | "unsaved";

export const domainMessages: Messages<Key> = {
  pl: {
    title: PAGE_TITLES.pl.domain,
    intro: "Domena {domain}: konto domyślne, ochrona antyspamowa i limity.",
    loading: "Wczytywanie ustawień domeny…",
    loadFailed: "Nie udało się wczytać domeny: {error}",
    retry: "Spróbuj ponownie",
    catchall: "Konto domyślne (catchall)",
    catchallDesc: "Co się dzieje z pocztą wysłaną na nieistniejący adres w domenie.",
    catchall_type: "Rodzaj konta domyślnego",
    type0: "Brak — zwróć pocztę nadawcy",
    type1: "Konto w tej domenie",
    type2: "Konto w innej domenie",
    type3: "Inna domena (ta sama nazwa konta)",
    rule0: "Poczta na nieistniejące konto wraca do nadawcy. Adres musi pozostać pusty.",
    rule1: "Poczta trafia na istniejące konto w tej domenie. Podaj jego pełny adres, np. biuro@{domain}.",
    rule2:
      "Poczta trafia na istniejące konto w innej domenie tego samego klienta (obsługiwanej na tym serwerze). Podaj jego pełny adres spoza {domain}.",
    rule3:
      "Poczta na nieistniejące konto trafia na konto o tej samej nazwie w innej domenie tego samego klienta (obsługiwanej na tym serwerze). Podaj samą nazwę domeny, np. example.org.",
    catchall_address: "Adres konta domyślnego",
    addressNone: "Nie dotyczy",
    address1: "Pełny adres w tej domenie",
    address2: "Pełny adres w innej domenie",
    address3: "Nazwa domeny",
    addressRequired: "Podaj adres konta domyślnego.",
    antispam: "Ochrona antyspamowa",
    antispamDesc: "Ustawienia domeny; konto ustawione na „domyślnie” dziedziczy je.",
    spam_enabled: "Filtr antyspamowy włączony",
    lists: "Listy adresów",
    listsDesc: "Adresy e-mail lub domeny, jeden wpis w wierszu. Każdy wpis jest sprawdzany przed zapisem.",
    limits: "Limity",
    limitsDesc: "Przydzielone przez dostawcę; zmiana wymaga kontaktu z dostawcą.",
    accounts: "Konta",
    aliases: "Aliasy",
    mailinglists: "Listy dyskusyjne",
    capacity: "Przydzielona pojemność (MB)",
    save: "Zapisz ustawienia",
    saved: "Zapisano ustawienia domeny.",
    saveFailed: "Nie zapisano: {error}",
    fixFields: "Popraw zaznaczone pola i zapisz ponownie.",
    unsaved: "Masz niezapisane zmiany.",
  },
  en: {
    title: PAGE_TITLES.en.domain,
    intro: "Domain {domain}: default account, anti-spam protection and limits.",
    loading: "Loading the domain settings…",
    loadFailed: "The domain could not be loaded: {error}",
    retry: "Try again",
    catchall: "Default account (catchall)",
    catchallDesc: "What happens to mail sent to an address that does not exist in the domain.",
    catchall_type: "Kind of default account",
    type0: "None — return to sender",
    type1: "An account in this domain",
    type2: "An account in another domain",
    type3: "Another domain (same account name)",
    rule0: "Mail to a nonexistent account goes back to the sender. The address must stay empty.",
    rule1: "Mail goes to an existing account of this domain. Give its full address, e.g. office@{domain}.",
    rule2:
      "Mail goes to an existing account in another domain of the same customer (hosted on this server). Give its full address outside {domain}.",
    rule3:
      "Mail to a nonexistent account goes to the same-named account in another domain of the same customer (hosted on this server). Give just the domain name, e.g. example.org.",
    catchall_address: "Default account address",
    addressNone: "Not applicable",
    address1: "Full address in this domain",
    address2: "Full address in another domain",
    address3: "Domain name",
    addressRequired: "Enter the default account's address.",
    antispam: "Anti-spam protection",
    antispamDesc: "The domain's settings; accounts set to “default” inherit them.",
    spam_enabled: "Anti-spam filter on",
    lists: "Address lists",
    listsDesc: "E-mail addresses or domains, one entry a line. Every entry is checked before saving.",
    limits: "Limits",
    limitsDesc: "Granted by the provider; ask the provider to change them.",
    accounts: "Accounts",
    aliases: "Aliases",
    mailinglists: "Mailing lists",
    capacity: "Granted capacity (MB)",
    save: "Save settings",
    saved: "Domain settings saved.",
    saveFailed: "Not saved: {error}",
    fixFields: "Correct the marked fields and save again.",
    unsaved: "You have unsaved changes.",
  },
};
