// Texts of the bulk-create dialog (bulk-create.tsx). {count}, {created}, {failed}: counts with their noun.
import type { Messages } from "@/lib/i18n";

type Key =
  | "title"
  | "format"
  | "lines"
  | "file"
  | "chooseFile"
  | "noFile"
  | "preview"
  | "previewSummary"
  | "previewCaption"
  | "line"
  | "name"
  | "password"
  | "capacity"
  | "check"
  | "generated"
  | "given"
  | "ok"
  | "back"
  | "create"
  | "creating"
  | "of"
  | "resultSummary"
  | "resultCaption"
  | "result"
  | "created"
  | "retry"
  | "download"
  | "downloadedOnce"
  | "close"
  | "duplicateInInput"
  | "columnsSwapped"
  | "description"
  | "encoding1250"
  | "closeWarning"
  | "closeAnyway";

export const bulkCreateMessages: Messages<Key> = {
  pl: {
    title: "Dodaj wiele kont",
    format:
      "Jedno konto w wierszu: nazwa; hasło (puste: wygenerowane); pojemność w MB (pusta: 1024); opis. Pola oddziela średnik (albo przecinek), pierwszy wiersz z nazwami kolumn jest pomijany, podobnie jak wiersze bez żadnej wartości (np. „;;;” z Excela).",
    lines: "Wiersze",
    file: "…albo plik CSV",
    chooseFile: "Wybierz plik",
    noFile: "Nie wybrano pliku",
    preview: "Sprawdź",
    previewSummary: "Do utworzenia: {count}. Wiersze z błędem: {invalid} (nie zostaną wysłane).",
    previewCaption: "Podgląd wierszy",
    line: "Wiersz",
    name: "Nazwa",
    password: "Hasło",
    capacity: "Pojemność (MB)",
    check: "Sprawdzenie",
    generated: "wygenerowane",
    given: "podane",
    ok: "poprawny",
    back: "Wróć do edycji",
    create: "Utwórz {count}",
    creating: "Tworzenie kont…",
    of: "z",
    resultSummary: "Utworzono: {created}. Nie utworzono: {failed}.",
    resultCaption: "Wynik dla każdego wiersza",
    result: "Wynik",
    created: "utworzono",
    retry: "Ponów nieudane",
    download: "Pobierz wygenerowane hasła (CSV, {n})",
    downloadedOnce: "Wygenerowane hasła pobrano; panel ich nie przechowuje i nie pokaże ponownie.",
    close: "Zamknij",
    duplicateInInput: "Ta nazwa wystąpiła już wcześniej w danych.",
    columnsSwapped: "Pojemność i opis są zamienione: kolejność to nazwa; hasło; pojemność; opis.",
    description: "Opis",
    encoding1250:
      "Plik nie był zapisany w UTF-8; odczytano go jako Windows-1250 (tak zapisuje polski Excel). Sprawdź polskie litery w opisach poniżej.",
    closeWarning:
      "Wygenerowane hasła ({n}) nie zostały pobrane. Po zamknięciu znikną, a konta z nimi już istnieją. Pobierz je teraz.",
    closeAnyway: "Zamknij bez pobierania",
  },
  en: {
    title: "Add many accounts",
    format:
      "One account a line: name; password (empty: generated); capacity in MB (empty: 1024); description. Fields are separated by a semicolon (or a comma); a first line naming the columns is skipped, and so are lines with no value at all (such as Excel's “;;;”).",
    lines: "Lines",
    file: "…or a CSV file",
    chooseFile: "Choose a file",
    noFile: "No file chosen",
    preview: "Check",
    previewSummary: "To create: {count}. Lines with an error: {invalid} (not sent).",
    previewCaption: "Preview of the lines",
    line: "Line",
    name: "Name",
    password: "Password",
    capacity: "Capacity (MB)",
    check: "Check",
    generated: "generated",
    given: "given",
    ok: "valid",
    back: "Back to editing",
    create: "Create {count}",
    creating: "Creating accounts…",
    of: "of",
    resultSummary: "Created: {created}. Not created: {failed}.",
    resultCaption: "The result of each line",
    result: "Result",
    created: "created",
    retry: "Retry the failed ones",
    download: "Download the generated passwords (CSV, {n})",
    downloadedOnce:
      "The generated passwords were downloaded; the panel does not keep them and will not show them again.",
    close: "Close",
    duplicateInInput: "This name already came earlier in the input.",
    columnsSwapped: "Capacity and description are swapped: the order is name; password; capacity; description.",
    description: "Description",
    encoding1250:
      "The file was not saved as UTF-8; it was read as Windows-1250 (what Polish Excel saves). Check the Polish letters in the descriptions below.",
    closeWarning:
      "The generated passwords ({n}) were not downloaded. Closing drops them, and the accounts already exist. Download them now.",
    closeAnyway: "Close without downloading",
  },
};
