import { PAGE_TITLES } from "@/lib/i18n/page-titles";
import type { Messages } from "@/lib/i18n";
import type { RecordPageKey } from "../../_postmaster/record-page";

type Key =
  | RecordPageKey
  | "created"
  | "save"
  | "saved"
  | "saveFailed"
  | "fixFields"
  | "unsaved"
  | "settings"
  | "settingsDesc"
  | "description"
  | "descriptionHint"
  | "privacy_mode"
  | "privacy0"
  | "privacy1"
  | "privacy2"
  | "privacyHint"
  | "replyto_mode"
  | "replyto0"
  | "replyto1"
  | "replyto2"
  | "replyto_email"
  | "replytoEmailHint"
  | "replyto_catchall"
  | "replytoCatchallHint"
  | "confirm_url"
  | "confirmUrlHint"
  | "autosubscribe_enabled"
  | "autosubscribeHint"
  | "subscribers"
  | "subscribersDesc"
  | "moderators"
  | "moderatorsDesc"
  | "templates"
  | "templatesDesc"
  | "subscribe_request"
  | "unsubscribe_request"
  | "subscribe"
  | "unsubscribe"
  | "subject"
  | "body"
  | "restore"
  | "confirmLinkHint";

export const listEditorMessages: Messages<Key> = {
  pl: {
    back: "← Wszystkie listy",
    title: PAGE_TITLES.pl.list,
    loading: "Wczytywanie listy…",
    notFound: "Nie ma listy {name}. Mogła zostać usunięta — wróć do spisu list.",
    loadFailed: "Nie udało się wczytać listy: {error}",
    created: "Utworzono listę. Dodaj subskrybentów i zapisz.",
    save: "Zapisz listę",
    saved: "Zapisano listę.",
    saveFailed: "Nie zapisano: {error}",
    fixFields: "Popraw zaznaczone pola i zapisz ponownie.",
    unsaved: "Masz niezapisane zmiany.",
    settings: "Ustawienia",
    settingsDesc: "Kto może pisać na listę i dokąd trafiają odpowiedzi.",
    description: "Opis (nazwa nadawcy)",
    descriptionHint: "Dodawany do adresu listy w polu Od.",
    privacy_mode: "Kto może pisać na listę",
    privacy0: "Każdy (lista otwarta)",
    privacy1: "Moderatorzy (lista moderowana)",
    privacy2: "Subskrybenci (lista zamknięta)",
    privacyHint:
      "Moderowana: wiadomości pozostałych nadawców czekają na zatwierdzenie moderatora. Zamknięta: wiadomości spoza listy są odrzucane.",
    replyto_mode: "Odpowiedzi trafiają do",
    replyto0: "Listy",
    replyto1: "Nadawcy wiadomości",
    replyto2: "Adresu podanego niżej",
    replyto_email: "Adres dla odpowiedzi",
    replytoEmailHint: "Wymagany, gdy odpowiedzi trafiają do wskazanego adresu.",
    replyto_catchall: "Przekazuj wiadomości subskrybentów na adres dla odpowiedzi",
    replytoCatchallHint:
      "Dotyczy listy moderowanej z adresem dla odpowiedzi; bez tego wiadomości subskrybentów czekają na moderatora.",
    confirm_url: "Adres strony potwierdzenia",
    confirmUrlHint: "http(s)://… — link w wiadomościach z prośbą o potwierdzenie.",
    autosubscribe_enabled: "Zapis przez wiadomość z tematem SUBSCRIBE",
    autosubscribeHint: "Każdy może się zapisać, wysyłając taką wiadomość na adres listy.",
    subscribers: "Subskrybenci",
    subscribersDesc: "Adresy, które otrzymują wiadomości z listy.",
    moderators: "Moderatorzy",
    moderatorsDesc: "Adresy, które mogą pisać na listę moderowaną.",
    templates: "Szablony wiadomości",
    templatesDesc: "{{list}} zastępowane jest adresem listy, {{confirm_link}} linkiem potwierdzającym.",
    subscribe_request: "Prośba o potwierdzenie zapisu",
    unsubscribe_request: "Prośba o potwierdzenie wypisania",
    subscribe: "Potwierdzenie zapisu",
    unsubscribe: "Potwierdzenie wypisania",
    subject: "Temat: {which}",
    body: "Treść: {which}",
    restore: "Przywróć domyślny: {which}",
    confirmLinkHint: "Musi zawierać {{confirm_link}}.",
  },
  en: {
    back: "← All lists",
    title: PAGE_TITLES.en.list,
    loading: "Loading the list…",
    notFound: "There is no list {name}. It may have been deleted — go back to the lists.",
    loadFailed: "The list could not be loaded: {error}",
    created: "List created. Add subscribers and save.",
    save: "Save list",
    saved: "List saved.",
    saveFailed: "Not saved: {error}",
    fixFields: "Correct the marked fields and save again.",
    unsaved: "You have unsaved changes.",
    settings: "Settings",
    settingsDesc: "Who may post to the list and where replies go.",
    description: "Description (sender name)",
    descriptionHint: "Added to the list address in the From header.",
    privacy_mode: "Who may post",
    privacy0: "Anyone (open list)",
    privacy1: "Moderators (moderated list)",
    privacy2: "Subscribers (closed list)",
    privacyHint:
      "Moderated: other senders' posts wait for a moderator's approval. Closed: posts from outside the list are refused.",
    replyto_mode: "Replies go to",
    replyto0: "The list",
    replyto1: "The sender",
    replyto2: "The address below",
    replyto_email: "Reply address",
    replytoEmailHint: "Required when replies go to a fixed address.",
    replyto_catchall: "Forward subscribers' messages to the reply address",
    replytoCatchallHint:
      "For a moderated list with a reply address; without it subscribers' posts wait for a moderator.",
    confirm_url: "Confirmation page URL",
    confirmUrlHint: "http(s)://… — the link in confirmation requests.",
    autosubscribe_enabled: "Subscribe by a message with the subject SUBSCRIBE",
    autosubscribeHint: "Anyone may subscribe by sending such a message to the list address.",
    subscribers: "Subscribers",
    subscribersDesc: "Addresses that receive the list's messages.",
    moderators: "Moderators",
    moderatorsDesc: "Addresses allowed to post to a moderated list.",
    templates: "Message templates",
    templatesDesc: "{{list}} becomes the list address, {{confirm_link}} the confirmation link.",
    subscribe_request: "Subscription confirmation request",
    unsubscribe_request: "Unsubscription confirmation request",
    subscribe: "Subscription confirmed",
    unsubscribe: "Unsubscription confirmed",
    subject: "Subject: {which}",
    body: "Body: {which}",
    restore: "Restore default: {which}",
    confirmLinkHint: "Must contain {{confirm_link}}.",
  },
};
