import { PAGE_TITLES } from "@/lib/i18n/page-titles";
import type { Messages } from "@/lib/i18n";

type Key =
  | "title"
  | "intro"
  | "name"
  | "description"
  | "privacy_mode"
  | "replyto_mode"
  | "autosubscribe_enabled"
  | "privacy0"
  | "privacy1"
  | "privacy2"
  | "replyto0"
  | "replyto1"
  | "replyto2"
  | "yes"
  | "no"
  | "edit"
  | "delete"
  | "actions"
  | "create"
  | "createTitle"
  | "nameHint"
  | "confirmDelete"
  | "confirmDeleteMany"
  | "deleteTitle"
  | "deleted"
  | "empty"
  | "emptySearch"
  | "loadFailed"
  | "retry";

export const listMessages: Messages<Key> = {
  pl: {
    title: PAGE_TITLES.pl.lists,
    intro: "Listy dyskusyjne domeny {domain}: kto je czyta, kto może na nie pisać.",
    name: "Lista",
    description: "Opis",
    privacy_mode: "Kto może pisać",
    replyto_mode: "Odpowiedzi do",
    autosubscribe_enabled: "Zapis przez SUBSCRIBE",
    privacy0: "Każdy (otwarta)",
    privacy1: "Moderatorzy (moderowana)",
    privacy2: "Subskrybenci (zamknięta)",
    replyto0: "Listy",
    replyto1: "Nadawcy",
    replyto2: "Wskazanego adresu",
    yes: "tak",
    no: "nie",
    edit: "Edytuj listę {email}",
    delete: "Usuń",
    actions: "Akcje",
    create: "Utwórz listę",
    createTitle: "Nowa lista",
    nameHint: "Sama nazwa przed @{domain}: małe litery, cyfry oraz / . - (od 2 do 32 znaków).",
    confirmDelete: "Usunąć listę {email} wraz z subskrybentami? Tej operacji nie można cofnąć.",
    confirmDeleteMany: "Listy zostaną usunięte wraz z subskrybentami. Tej operacji nie można cofnąć.",
    deleteTitle: "Usunąć listę?",
    deleted: "Usunięto listę {email}.",
    empty: "Domena nie ma list dyskusyjnych. Utwórz pierwszą formularzem powyżej.",
    emptySearch: "Żadna lista nie pasuje do „{search}”. Zmień lub wyczyść wyszukiwanie.",
    loadFailed: "Nie udało się wczytać list: {error}",
    retry: "Spróbuj ponownie",
  },
  en: {
    title: PAGE_TITLES.en.lists,
    intro: "Mailing lists of {domain}: who reads them and who may write to them.",
    name: "List",
    description: "Description",
    privacy_mode: "Who may post",
    replyto_mode: "Replies go to",
    autosubscribe_enabled: "SUBSCRIBE by mail",
    privacy0: "Anyone (open)",
    privacy1: "Moderators (moderated)",
    privacy2: "Subscribers (closed)",
    replyto0: "The list",
    replyto1: "The sender",
    replyto2: "A fixed address",
    yes: "yes",
    no: "no",
    edit: "Edit the list {email}",
    delete: "Delete",
    actions: "Actions",
    create: "Create list",
    createTitle: "New list",
    nameHint: "Just the name before @{domain}: lowercase letters, digits and / . - (2 to 32 characters).",
    confirmDelete: "Delete the list {email} and its subscribers? This cannot be undone.",
    confirmDeleteMany: "The lists go with their subscribers. This cannot be undone.",
    deleteTitle: "Delete the list?",
    deleted: "List {email} deleted.",
    empty: "The domain has no mailing lists. Create the first one with the form above.",
    emptySearch: "No list matches “{search}”. Change or clear the search.",
    loadFailed: "The lists could not be loaded: {error}",
    retry: "Try again",
  },
};
