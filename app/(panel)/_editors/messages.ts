// Texts of the pieces every editor shares (outcome, dates, autoresponder, spam filter), Polish and English.
import type { Messages } from "@/lib/i18n";
import type { SpamList } from "@/lib/schemas/spam";

type Key =
  | "details"
  | "dateFormat"
  | "dateInvalid"
  | "dateNoSuchDay"
  | "arMode"
  | "arStart"
  | "arEnd"
  | "arDateHint"
  | "arBody"
  | "arBodyRequired"
  | "arEndBeforeStart"
  | "tooLong"
  | "spam_rule"
  | "spam_hits"
  | "hits2"
  | "hits5"
  | "hits7"
  | "hits9"
  | "spam_delete_after"
  | "spamDeleteHint"
  | "ruleMove"
  | "ruleTag"
  | SpamList
  | "spamListHint";

export const editorSharedMessages: Messages<Key> = {
  pl: {
    details: "Szczegóły dla pomocy technicznej",
    dateFormat: "Format: DD.MM.RRRR",
    dateInvalid: "Wpisz datę jako DD.MM.RRRR, np. 31.12.2030, albo zostaw pole puste.",
    dateNoSuchDay: "Nie ma takiego dnia: {date}. Sprawdź dzień i miesiąc.",
    arMode: "Autoresponder włączony",
    arStart: "Data początkowa",
    arEnd: "Data końcowa",
    arDateHint: "Puste pole oznacza brak ograniczenia.",
    arBody: "Treść odpowiedzi",
    arBodyRequired: "Włączony autoresponder musi mieć treść odpowiedzi. Wpisz ją albo wyłącz autoresponder.",
    arEndBeforeStart: "Data końcowa jest wcześniejsza niż data początkowa.",
    tooLong: "Tekst jest za długi (najwyżej {n} znaków).",
    spam_rule: "Co robić ze spamem",
    spam_hits: "Czułość filtra",
    hits2: "Duża (2)",
    hits5: "Normalna (5)",
    hits7: "Mała (7)",
    hits9: "Bardzo mała (9)",
    spam_delete_after: "Usuwaj spam po (dniach)",
    spamDeleteHint: "0: nie czyść folderu Spam.",
    ruleMove: "Przenoś do folderu Spam",
    ruleTag: "Dopisuj [SPAM] przed tematem",
    spam_white_list: "Biała lista (zawsze przyjmuj)",
    spam_black_list: "Czarna lista (zawsze odrzucaj)",
    spam_greylist_whitelist: "Wyjątki greylistingu",
    spam_spf_whitelist: "Wyjątki kontroli SPF",
    spam_rbl_whitelist: "Wyjątki list RBL",
    spamListHint: "Jeden adres e-mail lub domena w wierszu, np. jan@partner.pl albo partner.pl.",
  },
  en: {
    details: "Details for support",
    dateFormat: "Format: YYYY-MM-DD",
    dateInvalid: "Enter the date as YYYY-MM-DD, e.g. 2030-12-31, or leave the field empty.",
    dateNoSuchDay: "There is no such day: {date}. Check the day and month.",
    arMode: "Autoresponder on",
    arStart: "Start date",
    arEnd: "End date",
    arDateHint: "Leave empty for no limit.",
    arBody: "Reply text",
    arBodyRequired: "An autoresponder that is on needs a reply text. Enter one or switch the autoresponder off.",
    arEndBeforeStart: "The end date is before the start date.",
    tooLong: "The text is too long (at most {n} characters).",
    spam_rule: "What to do with spam",
    spam_hits: "Filter sensitivity",
    hits2: "High (2)",
    hits5: "Normal (5)",
    hits7: "Low (7)",
    hits9: "Very low (9)",
    spam_delete_after: "Delete spam after (days)",
    spamDeleteHint: "0: never clean the Spam folder.",
    ruleMove: "Move into the Spam folder",
    ruleTag: "Put [SPAM] before the subject",
    spam_white_list: "Whitelist (always accept)",
    spam_black_list: "Blacklist (always reject)",
    spam_greylist_whitelist: "Greylisting exceptions",
    spam_spf_whitelist: "SPF check exceptions",
    spam_rbl_whitelist: "RBL exceptions",
    spamListHint: "One address or domain a line, e.g. john@partner.com or partner.com.",
  },
};
