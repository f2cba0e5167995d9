// Texts of the "My account" page.
import { PAGE_TITLES } from "@/lib/i18n/page-titles";
import type { Messages } from "@/lib/i18n";

export const meMessages: Messages<
  | "title"
  | "loading"
  | "loadFailed"
  | "retry"
  | "save"
  | "saving"
  | "saved"
  | "saveFailed"
  | "fixFields"
  | "infoTitle"
  | "infoDesc"
  | "infoDescPostmaster"
  | "infoEditorLink"
  | "description"
  | "capacity"
  | "usage"
  | "expiration"
  | "never"
  | "forwardLimit"
  | "aliasLimit"
  | "aliases"
  | "none"
  | "created"
  | "lastLogin"
  | "blocked"
  | "yes"
  | "no"
  | "readOnlyNote"
  | "arTitle"
  | "arDesc"
  | "arMode"
  | "arOff"
  | "arOn"
  | "arStart"
  | "arEnd"
  | "arBody"
  | "arDateHint"
  | "invalidDate"
  | "tooLong"
  | "fwTitle"
  | "fwDesc"
  | "fwList"
  | "fwHint"
  | "fwKeep"
  | "fwKeepHint"
  | "fwTooMany"
  | "fwNoneAllowed"
  | "pwTitle"
  | "pwCurrent"
  | "pwCurrentMissing"
  | "pwDesc"
  | "pwNew"
  | "pwRetype"
  | "pwRules"
  | "pwRuleOk"
  | "pwRuleBad"
  | "ruleLength"
  | "ruleLetter"
  | "ruleDigitOrSpecial"
  | "ruleCharacters"
  | "pwInvalid"
  | "pwMismatch"
  | "pwChanged"
  | "spamTitle"
  | "spamDesc"
  | "spamInvalid"
  | "sessionExpired"
  | "usageOf"
  | "denied"
  | "filterTitle"
  | "filterDesc"
  | "spam_enabled"
  | "hitsHint"
  | "deleteAfterInvalid"
> = {
  pl: {
    title: PAGE_TITLES.pl.me,
    loading: "Wczytywanie ustawień konta…",
    loadFailed: "Nie udało się wczytać ustawień konta.",
    retry: "Spróbuj ponownie",
    save: "Zapisz",
    saving: "Zapisywanie…",
    saved: "Zapisano zmiany.",
    saveFailed: "Nie udało się zapisać zmian.",
    fixFields: "Popraw zaznaczone pola i zapisz ponownie.",
    infoTitle: "Informacje o koncie",
    infoDesc: "Te ustawienia może zmienić tylko administrator domeny.",
    infoDescPostmaster: "Te ustawienia zmieniasz jako administrator domeny w edytorze konta:",
    infoEditorLink: "Konto postmaster",
    description: "Opis",
    capacity: "Pojemność skrzynki",
    usage: "Zajętość skrzynki",
    expiration: "Data ważności",
    never: "bezterminowo",
    forwardLimit: "Limit przekierowań",
    aliasLimit: "Limit aliasów",
    aliases: "Aliasy",
    none: "brak",
    created: "Utworzono",
    lastLogin: "Ostatnie logowanie",
    blocked: "Zablokowane",
    yes: "tak",
    no: "nie",
    readOnlyNote: "tylko do odczytu",
    arTitle: "Autoresponder",
    arDesc: "Automatyczna odpowiedź wysyłana nadawcom wiadomości, np. podczas urlopu.",
    arMode: "Autoresponder",
    arOff: "Wyłączony",
    arOn: "Włączony",
    arStart: "Data początkowa",
    arEnd: "Data końcowa",
    arDateHint: "Puste pole oznacza brak ograniczenia.",
    arBody: "Treść odpowiedzi",
    invalidDate: "Podaj prawdziwą datę w formacie RRRR-MM-DD albo zostaw pole puste.",
    tooLong: "Tekst jest za długi (najwyżej {n} znaków).",
    fwTitle: "Przekierowania",
    fwDesc: "Kopie przychodzących wiadomości trafią także na te adresy.",
    fwList: "Adresy przekierowań",
    fwHint: "Jeden adres w wierszu, najwyżej {n}.",
    fwKeep: "Zachowuj wiadomości na tym koncie",
    fwKeepHint: "Bez tej opcji wiadomości po przekierowaniu są usuwane ze skrzynki.",
    fwTooMany: "Możesz ustawić najwyżej {n}. Usuń nadmiarowe adresy.",
    fwNoneAllowed: "Administrator domeny nie zezwolił temu kontu na przekierowania.",
    pwTitle: "Zmiana hasła",
    pwDesc: "Po zmianie hasła ta sesja w panelu pozostaje aktywna.",
    pwCurrent: "Obecne hasło",
    pwCurrentMissing: "Wpisz obecne hasło: bez niego hasła nie można zmienić.",
    pwNew: "Nowe hasło",
    pwRetype: "Powtórz nowe hasło",
    pwRules: "Wymagania dotyczące hasła",
    pwRuleOk: "spełnione",
    pwRuleBad: "niespełnione",
    ruleLength: "od 6 do 15 znaków",
    ruleLetter: "co najmniej jedna litera",
    ruleDigitOrSpecial: "co najmniej jedna cyfra lub znak specjalny",
    ruleCharacters: "tylko litery, cyfry i znaki ~!@#%^&*()_+=-;,./<>?:[]{}",
    pwInvalid: "Hasło nie spełnia wymagań wymienionych poniżej.",
    pwMismatch: "Hasła nie są takie same. Wpisz to samo hasło dwa razy.",
    pwChanged: "Hasło zostało zmienione.",
    filterTitle: "Filtr antyspamowy",
    filterDesc: "Co serwer robi z wiadomościami, które uzna za spam. Zmiana obowiązuje od następnej wiadomości.",
    spam_enabled: "Filtr antyspamowy włączony",
    hitsHint: "Od jakiej oceny wiadomość jest spamem: im mniejsza liczba, tym więcej wiadomości trafia do spamu.",
    deleteAfterInvalid: "Podaj liczbę dni od 0 do 3650.",
    spamTitle: "Listy antyspamowe",
    spamDesc: "Adresy e-mail lub domeny traktowane w szczególny sposób przez filtry antyspamowe.",
    spamInvalid: "Każdy wiersz musi być adresem e-mail lub domeną (np. example.com), bez powtórzeń.",
    sessionExpired: "Sesja wygasła. Zaloguj się ponownie.",
    // A no-break space keeps each number with its unit: "MB" alone on a line of its own read badly.
    usageOf: "{used}\u00a0MB z {c}\u00a0MB ({p}%)",
    denied:
      "Ta strona jest tylko dla administratora domeny (postmaster). Otwarto zamiast niej ustawienia Twojego konta.",
  },
  en: {
    title: PAGE_TITLES.en.me,
    loading: "Loading account settings…",
    loadFailed: "Could not load the account settings.",
    retry: "Try again",
    save: "Save",
    saving: "Saving…",
    saved: "Changes saved.",
    saveFailed: "Could not save the changes.",
    fixFields: "Correct the marked fields and save again.",
    infoTitle: "Account information",
    infoDesc: "Only the domain administrator can change these settings.",
    infoDescPostmaster: "As the domain administrator you change these settings in the account editor:",
    infoEditorLink: "the postmaster account",
    description: "Description",
    capacity: "Mailbox capacity",
    usage: "Mailbox usage",
    expiration: "Expiration date",
    never: "never",
    forwardLimit: "Forwarding limit",
    aliasLimit: "Alias limit",
    aliases: "Aliases",
    none: "none",
    created: "Created",
    lastLogin: "Last sign-in",
    blocked: "Blocked",
    yes: "yes",
    no: "no",
    readOnlyNote: "read-only",
    arTitle: "Autoresponder",
    arDesc: "An automatic reply sent to people who write to you, e.g. while you are on holiday.",
    arMode: "Autoresponder",
    arOff: "Off",
    arOn: "On",
    arStart: "Start date",
    arEnd: "End date",
    arDateHint: "Leave empty for no limit.",
    arBody: "Reply text",
    invalidDate: "Enter a real date as YYYY-MM-DD or leave the field empty.",
    tooLong: "The text is too long (at most {n} characters).",
    fwTitle: "Forwarding",
    fwDesc: "Copies of incoming mail also go to these addresses.",
    fwList: "Forwarding addresses",
    fwHint: "One address per line, at most {n}.",
    fwKeep: "Keep messages in this mailbox",
    fwKeepHint: "Without this option, forwarded messages are removed from the mailbox.",
    fwTooMany: "You can set at most {n}. Remove the extra ones.",
    fwNoneAllowed: "The domain administrator has not allowed forwarding for this account.",
    pwTitle: "Change password",
    pwDesc: "You stay signed in to the panel after the change.",
    pwCurrent: "Current password",
    pwCurrentMissing: "Enter the current password: the password cannot be changed without it.",
    pwNew: "New password",
    pwRetype: "Repeat the new password",
    pwRules: "Password requirements",
    pwRuleOk: "met",
    pwRuleBad: "not met",
    ruleLength: "6 to 15 characters",
    ruleLetter: "at least one letter",
    ruleDigitOrSpecial: "at least one digit or special character",
    ruleCharacters: "only letters, digits and ~!@#%^&*()_+=-;,./<>?:[]{}",
    pwInvalid: "The password does not meet the requirements listed below.",
    pwMismatch: "The passwords differ. Type the same password twice.",
    pwChanged: "Your password has been changed.",
    filterTitle: "Spam filter",
    filterDesc: "What the server does with messages it considers spam. A change applies from the next message.",
    spam_enabled: "Spam filter on",
    hitsHint: "The score from which a message is spam: the smaller the number, the more messages count as spam.",
    deleteAfterInvalid: "Enter a number of days from 0 to 3650.",
    spamTitle: "Anti-spam lists",
    spamDesc: "Email addresses or domains that the spam filters treat specially.",
    spamInvalid: "Each line must be an email address or a domain (e.g. example.com), with no duplicates.",
    sessionExpired: "Your session has expired. Please sign in again.",
    usageOf: "{used}\u00a0MB of {c}\u00a0MB ({p}%)",
    denied:
      "That page is for the domain administrator (postmaster) only. Your own account's settings were opened instead.",
  },
};

export type MeKey = keyof (typeof meMessages)["pl"];
