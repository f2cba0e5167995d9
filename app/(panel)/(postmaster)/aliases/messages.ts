import { PAGE_TITLES } from "@/lib/i18n/page-titles";
import type { Messages } from "@/lib/i18n";

type Key =
  | "title"
  | "intro"
  | "name"
  | "target"
  | "email"
  | "actions"
  | "edit"
  | "delete"
  | "save"
  | "cancel"
  | "create"
  | "createTitle"
  | "nameHint"
  | "targetHint"
  | "created"
  | "updated"
  | "deleted"
  | "confirmDelete"
  | "confirmDeleteMany"
  | "deleteTitle"
  | "empty"
  | "emptySearch"
  | "loadFailed"
  | "retry"
  | "newTarget";

export const aliasMessages: Messages<Key> = {
  pl: {
    title: PAGE_TITLES.pl.aliases,
    intro: "Dodatkowe adresy domeny {domain}, które przekazują pocztę na inny adres.",
    name: "Alias",
    target: "Cel",
    email: "Adres",
    actions: "Akcje",
    edit: "Zmień cel",
    delete: "Usuń",
    save: "Zapisz",
    cancel: "Anuluj",
    create: "Utwórz alias",
    createTitle: "Nowy alias",
    nameHint: "Sama nazwa przed @{domain}: małe litery, cyfry oraz . - _ (od 2 do 32 znaków).",
    targetHint: "Pełny adres, na który trafi poczta.",
    created: "Utworzono alias {email}.",
    updated: "Zmieniono cel aliasu {email}.",
    deleted: "Usunięto alias {email}.",
    confirmDelete: "Usunąć alias {email}? Poczta na ten adres przestanie dochodzić.",
    confirmDeleteMany: "Poczta na te adresy przestanie dochodzić.",
    deleteTitle: "Usunąć alias?",
    empty: "Domena nie ma aliasów. Utwórz pierwszy formularzem powyżej.",
    emptySearch: "Żaden alias nie pasuje do „{search}”. Zmień lub wyczyść wyszukiwanie.",
    loadFailed: "Nie udało się wczytać aliasów: {error}",
    retry: "Spróbuj ponownie",
    newTarget: "Nowy cel aliasu {email}",
  },
  en: {
    title: PAGE_TITLES.en.aliases,
    intro: "Extra addresses of {domain} that pass mail on to another address.",
    name: "Alias",
    target: "Target",
    email: "Address",
    actions: "Actions",
    edit: "Change target",
    delete: "Delete",
    save: "Save",
    cancel: "Cancel",
    create: "Create alias",
    createTitle: "New alias",
    nameHint: "Just the name before @{domain}: lowercase letters, digits and . - _ (2 to 32 characters).",
    targetHint: "The full address that receives the mail.",
    created: "Alias {email} created.",
    updated: "Target of {email} changed.",
    deleted: "Alias {email} deleted.",
    confirmDelete: "Delete the alias {email}? Mail to this address will stop arriving.",
    confirmDeleteMany: "Mail to these addresses will stop arriving.",
    deleteTitle: "Delete the alias?",
    empty: "The domain has no aliases. Create the first one with the form above.",
    emptySearch: "No alias matches “{search}”. Change or clear the search.",
    loadFailed: "The aliases could not be loaded: {error}",
    retry: "Try again",
    newTarget: "New target of {email}",
  },
};
