import { PAGE_TITLES } from "@/lib/i18n/page-titles";
import type { Messages } from "@/lib/i18n";

type Key =
  | "title"
  | "intro"
  | "back"
  | "loading"
  | "loadFailed"
  | "retry"
  | "recheck"
  | "allPresent"
  | "notAll"
  | "name"
  | "value"
  | "found"
  | "copyName"
  | "copyValue"
  | "copied"
  | "copyFailed"
  | "present"
  | "missing"
  | "different"
  | "error"
  | "records"
  | "kind_mx"
  | "kind_spf"
  | "kind_dkim"
  | "kind_dkim_next"
  | "kind_dmarc"
  | "kind_autoconfig"
  | "kind_autodiscover"
  | "kind_autodiscover_srv"
  | "kind_imap_srv"
  | "kind_pop3_srv"
  | "kind_submission_srv"
  | "kind_mta_sts"
  | "kind_mta_sts_host"
  | "kind_tls_rpt";

export const dnsMessages: Messages<Key> = {
  pl: {
    title: PAGE_TITLES.pl.dns,
    intro: "Rekordy, które domena {domain} musi mieć w DNS, sprawdzone teraz u serwera DNS.",
    back: "Ustawienia domeny",
    loading: "Sprawdzanie rekordów DNS…",
    loadFailed: "Nie udało się sprawdzić rekordów DNS: {error}",
    retry: "Spróbuj ponownie",
    recheck: "Sprawdź ponownie",
    allPresent: "Wszystkie rekordy są w DNS ({count}).",
    notAll:
      "Brakuje lub różni się: {bad} z {count}. Dodaj je u dostawcy DNS domeny; zmiana może być widoczna dopiero po kilku minutach lub godzinach.",
    records: "Rekordy",
    name: "Nazwa",
    value: "Wartość",
    found: "W DNS jest",
    copyName: "Kopiuj nazwę: {label}",
    copyValue: "Kopiuj wartość: {label}",
    copied: "Skopiowano: {what}",
    copyFailed: "Nie udało się skopiować; zaznacz tekst i skopiuj go ręcznie.",
    present: "Jest",
    missing: "Brak",
    different: "Inny",
    error: "Błąd zapytania",
    kind_mx: "Serwer poczty przychodzącej (MX)",
    kind_spf: "SPF: kto może wysyłać pocztę z domeny",
    kind_dkim: "DKIM: klucz podpisu wysyłanej poczty",
    kind_dkim_next: "DKIM: nowy klucz; zacznie podpisywać pocztę, gdy ten rekord będzie w DNS",
    kind_dmarc: "DMARC: co odbiorca robi z pocztą bez SPF i DKIM",
    kind_autoconfig: "Autokonfiguracja Thunderbirda",
    kind_autodiscover: "Autodiscover (Outlook)",
    kind_autodiscover_srv: "Autodiscover (Outlook, rekord SRV)",
    kind_imap_srv: "IMAP dla programów pocztowych (SRV)",
    kind_pop3_srv: "POP3 dla programów pocztowych (SRV)",
    kind_submission_srv: "Wysyłanie poczty z programów (SRV)",
    kind_mta_sts: "MTA-STS: wymagaj szyfrowania poczty przychodzącej",
    kind_mta_sts_host: "MTA-STS: adres polityki",
    kind_tls_rpt: "TLS-RPT: raporty o szyfrowaniu",
  },
  en: {
    title: PAGE_TITLES.en.dns,
    intro: "The records the domain {domain} needs in DNS, checked now with the DNS server.",
    back: "Domain settings",
    loading: "Checking the DNS records…",
    loadFailed: "The DNS records could not be checked: {error}",
    retry: "Try again",
    recheck: "Check again",
    allPresent: "All records are in DNS ({count}).",
    notAll:
      "Missing or different: {bad} of {count}. Add them at the domain's DNS provider; a change may take minutes or hours to show.",
    records: "Records",
    name: "Name",
    value: "Value",
    found: "DNS holds",
    copyName: "Copy the name: {label}",
    copyValue: "Copy the value: {label}",
    copied: "Copied: {what}",
    copyFailed: "Could not copy; select the text and copy it by hand.",
    present: "Present",
    missing: "Missing",
    different: "Different",
    error: "Lookup failed",
    kind_mx: "Incoming mail server (MX)",
    kind_spf: "SPF: who may send the domain's mail",
    kind_dkim: "DKIM: the signing key of sent mail",
    kind_dkim_next: "DKIM: the new key; it starts signing mail once this record is in DNS",
    kind_dmarc: "DMARC: what receivers do with mail failing SPF and DKIM",
    kind_autoconfig: "Thunderbird autoconfiguration",
    kind_autodiscover: "Autodiscover (Outlook)",
    kind_autodiscover_srv: "Autodiscover (Outlook, SRV record)",
    kind_imap_srv: "IMAP for mail programs (SRV)",
    kind_pop3_srv: "POP3 for mail programs (SRV)",
    kind_submission_srv: "Sending from mail programs (SRV)",
    kind_mta_sts: "MTA-STS: require encryption of incoming mail",
    kind_mta_sts_host: "MTA-STS: policy host",
    kind_tls_rpt: "TLS-RPT: encryption reports",
  },
};
