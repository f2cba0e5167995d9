// Texts of the pieces every editor shares (outcome, dates, autoresponder), Polish and English.
import type { Messages } from "@/lib/i18n";

type Key =
  | "details"
  | "dateFormat"
  | "dateInvalid"
  | "arMode"
  | "arStart"
  | "arEnd"
  | "arDateHint"
  | "arBody"
  | "arBodyRequired"
  | "arEndBeforeStart"
  | "tooLong";

export const editorSharedMessages: Messages<Key> = {
  pl: {
    details: "Szczegóły dla pomocy technicznej",
    dateFormat: "Format: DD.MM.RRRR",
    dateInvalid: "Wpisz datę jako DD.MM.RRRR, np. 31.12.2030, albo zostaw pole puste.",
    arMode: "Autoresponder włączony",
    arStart: "Data początkowa",
    arEnd: "Data końcowa",
    arDateHint: "Puste pole oznacza brak ograniczenia.",
    arBody: "Treść odpowiedzi",
    arBodyRequired: "Włączony autoresponder musi mieć treść odpowiedzi. Wpisz ją albo wyłącz autoresponder.",
    arEndBeforeStart: "Data końcowa jest wcześniejsza niż data początkowa.",
    tooLong: "Tekst jest za długi (najwyżej {n} znaków).",
  },
  en: {
    details: "Details for support",
    dateFormat: "Format: YYYY-MM-DD",
    dateInvalid: "Enter the date as YYYY-MM-DD, e.g. 2030-12-31, or leave the field empty.",
    arMode: "Autoresponder on",
    arStart: "Start date",
    arEnd: "End date",
    arDateHint: "Leave empty for no limit.",
    arBody: "Reply text",
    arBodyRequired: "An autoresponder that is on needs a reply text. Enter one or switch the autoresponder off.",
    arEndBeforeStart: "The end date is before the start date.",
    tooLong: "The text is too long (at most {n} characters).",
  },
};
