import { PAGE_TITLES } from "@/lib/i18n/page-titles";
import type { Messages } from "@/lib/i18n";
import type { RecordPageKey } from "../../_postmaster/record-page";

type Key =
  | RecordPageKey
  | "save"
  | "saved"
  | "saveFailed"
  | "fixFields"
  | "unsaved"
  | "general"
  | "generalDesc"
  | "passwordGroup"
  | "passwordDesc"
  | "forwarding"
  | "forwardingDesc"
  | "autoresponder"
  | "autoresponderDesc"
  | "antispam"
  | "antispamDesc"
  | "sms"
  | "smsDesc"
  | "email"
  | "usage"
  | "createdOn"
  | "lastLogin"
  | "never"
  | "description"
  | "capacity"
  | "expiration_date"
  | "expirationHint"
  | "expiredWarning"
  | "usageOf"
  | "blocked"
  | "blockedHint"
  | "usage_notification_level"
  | "inbox_delete_after"
  | "trash_delete_after"
  | "daysHint"
  | "forward_limit"
  | "alias_limit"
  | "password"
  | "password_retype"
  | "passwordHint"
  | "forwards"
  | "forwardsHint"
  | "keep_mail"
  | "aliases"
  | "aliasesHint"
  | "autoresponder_mode"
  | "autoresponder_start_date"
  | "autoresponder_end_date"
  | "dateHint"
  | "autoresponder_body"
  | "spam_enabled"
  | "phone"
  | "smsLogin"
  | "smsPassword"
  | "operator"
  | "operatorAuto"
  | "phoneHint"
  | "sms_send_to"
  | "sendGateway"
  | "sendMail"
  | "sms_cnt"
  | "cnt0"
  | "cnt1"
  | "cnt2"
  | "cnt3"
  | "number";

export const editorMessages: Messages<Key> = {
  pl: {
    back: "← Wszystkie konta",
    title: PAGE_TITLES.pl.account,
    loading: "Wczytywanie konta…",
    notFound: "Nie ma konta {name}. Mogło zostać usunięte — wróć do listy kont.",
    loadFailed: "Nie udało się wczytać konta: {error}",
    save: "Zapisz zmiany",
    saved: "Zapisano zmiany.",
    saveFailed: "Nie zapisano: {error}",
    fixFields: "Popraw zaznaczone pola i zapisz ponownie.",
    unsaved: "Masz niezapisane zmiany.",
    general: "Ogólne",
    generalDesc: "Opis, pojemność, limity i ważność konta.",
    passwordGroup: "Hasło",
    passwordDesc: "Zostaw puste, aby nie zmieniać hasła.",
    forwarding: "Przekierowania i aliasy",
    forwardingDesc: "Adresy, na które trafia kopia poczty, i aliasy wskazujące na to konto.",
    autoresponder: "Autoresponder",
    autoresponderDesc: "Automatyczna odpowiedź, stała lub w wybranym okresie.",
    antispam: "Antyspam",
    antispamDesc: "Filtr spamu i mechanizmy RBL, SPF i greylisting dla tego konta.",
    sms: "Powiadomienia SMS",
    smsDesc: "Numery i bramki operatorów do powiadomień o nowej poczcie.",
    email: "Adres",
    usage: "Zajętość skrzynki",
    createdOn: "Utworzone",
    lastLogin: "Ostatnie logowanie",
    never: "nigdy",
    description: "Opis",
    capacity: "Pojemność (MB)",
    expiration_date: "Data wygaśnięcia",
    expirationHint: "Puste: konto nie wygasa.",
    expiredWarning: "Uwaga: ta data już minęła, więc po zapisaniu konto będzie wygasłe i nie zaloguje się.",
    // A no-break space keeps each number with its unit: "MB" alone on a line of its own read badly.
    usageOf: "{used}\u00a0MB z {capacity}\u00a0MB ({pct}%)",
    blocked: "Konto zablokowane",
    blockedHint:
      "Zablokowane konto nie może się logować; poczta do niego nadal trafia do skrzynki, ale przekierowania, autoresponder i powiadomienia SMS są wstrzymane.",
    usage_notification_level: "Ostrzeżenie o zajętości (%)",
    inbox_delete_after: "Usuwaj z odebranych po (dniach)",
    trash_delete_after: "Usuwaj z kosza po (dniach)",
    daysHint: "0: nie usuwaj.",
    forward_limit: "Limit przekierowań",
    alias_limit: "Limit aliasów",
    password: "Nowe hasło",
    password_retype: "Powtórz nowe hasło",
    passwordHint: "6-15 znaków, litera oraz cyfra lub znak specjalny.",
    forwards: "Przekierowania",
    forwardsHint: "Jeden adres w wierszu.",
    keep_mail: "Zachowuj kopię poczty na koncie",
    aliases: "Aliasy",
    aliasesHint: "Pełne adresy w tej domenie, jeden w wierszu.",
    autoresponder_mode: "Autoresponder włączony",
    autoresponder_start_date: "Od dnia",
    autoresponder_end_date: "Do dnia",
    dateHint: "RRRR-MM-DD; puste: bez ograniczenia.",
    autoresponder_body: "Treść odpowiedzi",
    spam_enabled: "Filtr antyspamowy włączony",
    phone: "Numer telefonu {n}",
    phoneHint: "Numer (np. +48600100200) lub adres e-mail bramki.",
    smsLogin: "Login bramki {n}",
    smsPassword: "Hasło bramki {n}",
    operator: "Operator {n}",
    operatorAuto: "Wykryj automatycznie",
    sms_send_to: "Sposób wysyłki",
    sendGateway: "Bramka operatora",
    sendMail: "Konto pocztowe u operatora",
    sms_cnt: "Treść i liczba SMS",
    cnt0: "1 SMS, tylko temat",
    cnt1: "1 SMS, temat i treść",
    cnt2: "2 SMS, temat i treść",
    cnt3: "3 SMS, temat i treść",
    number: "Numer {n}",
  },
  en: {
    back: "← All accounts",
    title: PAGE_TITLES.en.account,
    loading: "Loading the account…",
    notFound: "There is no account {name}. It may have been deleted — go back to the account list.",
    loadFailed: "The account could not be loaded: {error}",
    save: "Save changes",
    saved: "Changes saved.",
    saveFailed: "Not saved: {error}",
    fixFields: "Correct the marked fields and save again.",
    unsaved: "You have unsaved changes.",
    general: "General",
    generalDesc: "Description, capacity, limits and validity of the account.",
    passwordGroup: "Password",
    passwordDesc: "Leave empty to keep the current password.",
    forwarding: "Forwarding and aliases",
    forwardingDesc: "Addresses that get a copy of the mail, and aliases pointing at this account.",
    autoresponder: "Autoresponder",
    autoresponderDesc: "An automatic reply, permanent or for a period.",
    antispam: "Anti-spam",
    antispamDesc: "Spam filter and the RBL, SPF and greylisting mechanisms for this account.",
    sms: "SMS notifications",
    smsDesc: "Numbers and operator gateways for new-mail notifications.",
    email: "Address",
    usage: "Mailbox usage",
    createdOn: "Created",
    lastLogin: "Last sign-in",
    never: "never",
    description: "Description",
    capacity: "Capacity (MB)",
    expiration_date: "Expiration date",
    expirationHint: "Empty: the account never expires.",
    expiredWarning: "Note: this date has passed, so once saved the account is expired and cannot sign in.",
    usageOf: "{used}\u00a0MB of {capacity}\u00a0MB ({pct}%)",
    blocked: "Account blocked",
    blockedHint:
      "A blocked account cannot log in; its mail is still delivered to the mailbox, but forwards, the autoresponder and SMS notifications are paused.",
    usage_notification_level: "Usage warning level (%)",
    inbox_delete_after: "Delete from inbox after (days)",
    trash_delete_after: "Delete from trash after (days)",
    daysHint: "0: never delete.",
    forward_limit: "Forward limit",
    alias_limit: "Alias limit",
    password: "New password",
    password_retype: "Repeat the new password",
    passwordHint: "6-15 characters, a letter and a digit or a special character.",
    forwards: "Forwards",
    forwardsHint: "One address a line.",
    keep_mail: "Keep a copy of the mail on the account",
    aliases: "Aliases",
    aliasesHint: "Full addresses in this domain, one a line.",
    autoresponder_mode: "Autoresponder on",
    autoresponder_start_date: "From",
    autoresponder_end_date: "Until",
    dateHint: "YYYY-MM-DD; empty: no limit.",
    autoresponder_body: "Reply text",
    spam_enabled: "Anti-spam filter on",
    phone: "Phone number {n}",
    phoneHint: "A number (e.g. +48600100200) or the gateway's e-mail address.",
    smsLogin: "Gateway login {n}",
    smsPassword: "Gateway password {n}",
    operator: "Operator {n}",
    operatorAuto: "Detect automatically",
    sms_send_to: "Delivery method",
    sendGateway: "Operator gateway",
    sendMail: "Mail account at the operator",
    sms_cnt: "SMS content and count",
    cnt0: "1 SMS, subject only",
    cnt1: "1 SMS, subject and body",
    cnt2: "2 SMS, subject and body",
    cnt3: "3 SMS, subject and body",
    number: "Number {n}",
  },
};
