// Texts of the shared resource table (resource-table.tsx). {count} is a count with its noun ("10 kont").
import type { Messages } from "@/lib/i18n";
import type { Noun } from "@/lib/i18n/plural";

/** The pagers' count, "149 pozycji" / "149 items" (the tables' pager and the audit log's). */
export const ITEM_NOUN: Noun = {
  pl: { one: "pozycja", few: "pozycje", many: "pozycji", other: "pozycji" },
  en: { one: "item", other: "items" },
};

type Key =
  | "actions"
  | "delete"
  | "retry"
  | "selectPage"
  | "selectRow"
  | "selectedLabel"
  | "selected"
  | "selectedAll"
  | "selectAllMatching"
  | "clearSelection"
  | "deleteSelected"
  | "chunksNote"
  | "reading"
  | "applying"
  | "of"
  | "bulkDone"
  | "bulkFailed"
  | "bulkPartly"
  | "bulkDeleted"
  | "bulkDeleteFailed"
  | "bulkPartlyDeleted"
  | "deleted"
  | "deleteMany"
  | "andMore";

export const tableMessages: Messages<Key> = {
  pl: {
    actions: "Akcje",
    delete: "Usuń",
    retry: "Spróbuj ponownie",
    selectPage: "Zaznacz wszystkie wiersze na tej stronie",
    selectRow: "Zaznacz {name}",
    selectedLabel: "Zaznaczone",
    selected: "Zaznaczono: {count}",
    selectedAll: "Zaznaczono wszystkie pasujące: {count}",
    selectAllMatching: "Zaznacz wszystkie pasujące ({count})",
    clearSelection: "Odznacz",
    deleteSelected: "Usuń zaznaczone",
    chunksNote:
      "Zmiany idą porcjami po najwyżej {size} nazw: każda porcja zmienia się w całości albo wcale, porcje jedna po drugiej.",
    reading: "Odczytywanie zaznaczonych…",
    applying: "Zapisywanie zmian…",
    of: "z",
    bulkDone: "Zmieniono: {count}.",
    bulkFailed: "Nic nie zmieniono: {error}",
    bulkPartly: "Zmieniono {done}; pozostałych {rest} nie zmieniono: {error}",
    deleted: "Usunięto: {names}.",
    bulkDeleted: "Usunięto: {count}.",
    bulkDeleteFailed: "Nic nie usunięto: {error}",
    bulkPartlyDeleted: "Usunięto {done}; pozostałych {rest} nie usunięto: {error}",
    deleteMany: "Usunąć {count}?",
    // "i jeszcze 1", "i jeszcze 5": right for every number ("i 1 innych" was not).
    andMore: "i jeszcze {n}",
  },
  en: {
    actions: "Actions",
    delete: "Delete",
    retry: "Try again",
    selectPage: "Select all rows on this page",
    selectRow: "Select {name}",
    selectedLabel: "Selected",
    selected: "Selected: {count}",
    selectedAll: "All matching selected: {count}",
    selectAllMatching: "Select all matching ({count})",
    clearSelection: "Clear selection",
    deleteSelected: "Delete selected",
    chunksNote:
      "Changes go in chunks of at most {size} names: each chunk changes entirely or not at all, one chunk after another.",
    reading: "Reading the selection…",
    applying: "Saving the changes…",
    of: "of",
    bulkDone: "Changed: {count}.",
    bulkFailed: "Nothing was changed: {error}",
    bulkPartly: "Changed {done}; the other {rest} were not changed: {error}",
    deleted: "Deleted: {names}.",
    bulkDeleted: "Deleted: {count}.",
    bulkDeleteFailed: "Nothing was deleted: {error}",
    bulkPartlyDeleted: "Deleted {done}; the other {rest} were not deleted: {error}",
    deleteMany: "Delete {count}?",
    andMore: "and {n} more",
  },
};
