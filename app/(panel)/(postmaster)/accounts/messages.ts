import { PAGE_TITLES } from "@/lib/i18n/page-titles";
import type { Messages } from "@/lib/i18n";
import type { Noun } from "@/lib/i18n/plural";

type Key =
  | "title"
  | "intro"
  | "name"
  | "description"
  | "capacity"
  | "usage"
  | "usageOf"
  | "blocked"
  | "created"
  | "expires"
  | "lastLogin"
  | "edit"
  | "yes"
  | "no"
  | "empty"
  | "emptySearch"
  | "loading"
  | "loadFailed"
  | "block"
  | "unblock"
  | "setCapacity"
  | "spamOn"
  | "spamOff"
  | "confirmDelete"
  | "confirmDeleteMany"
  | "deleteTitle"
  | "create"
  | "createTitle"
  | "password"
  | "passwordHint"
  | "created_ok"
  | "nameHint"
  | "capacityHint"
  | "cancel"
  | "bulkCapacity"
  | "closeCreate"
  | "badgeBlocked"
  | "badgeExpired"
  | DeleteDetailKey
  | "bulkCreate"
  | "confirmBlockTitle"
  | "confirmBlock"
  | "skippedBlock"
  | "skippedDelete";

/**
 * The delete dialog's sentences about what goes with the accounts. A key ending in "Many" speaks of several accounts
 * being deleted; "Alias", "List" and "Forward" speak of one of those, "Aliases", "Lists" and "Forwards" of several
 * ({count} then the count with its noun, {n} the bare number). Polish needs the forms apart: the verb and the
 * pronoun follow the accounts and the things listed, not only the noun after the number.
 */
type DeleteDetailKey =
  | "deleteGoesToo"
  | "deleteGoesTooOne"
  | "deleteChecking"
  | "deleteCheckingMany"
  | "deleteCheckFailed"
  | "deleteCheckFailedMany"
  | "deleteNothingElse"
  | "deleteNothingElseOne"
  | "deleteAlias"
  | "deleteAliases"
  | "deleteAliasMany"
  | "deleteAliasesMany"
  | "deleteCatchall"
  | "deleteList"
  | "deleteLists"
  | "deleteListMany"
  | "deleteListsMany"
  | "deleteForward"
  | "deleteForwards"
  | "deleteForwardMany"
  | "deleteForwardsMany";

/** "1 konto", "3 konta", "10 kont". */
export const ACCOUNT_NOUN: Noun = {
  pl: { one: "konto", few: "konta", many: "kont", other: "konta" },
  en: { one: "account", other: "accounts" },
};

/** "1 alias", "3 aliasy", "10 aliasów". */
export const ALIAS_NOUN: Noun = {
  pl: { one: "alias", few: "aliasy", many: "aliasów", other: "aliasu" },
  en: { one: "alias", other: "aliases" },
};

export const accountMessages: Messages<Key> = {
  pl: {
    title: PAGE_TITLES.pl.accounts,
    intro: "Wyszukuj, sortuj i zmieniaj konta domeny {domain}.",
    name: "Nazwa",
    description: "Opis",
    capacity: "Pojemność (MB)",
    usage: "Zajętość",
    // One unit for both numbers, kept with the last by a no-break space: the cell fits "102 400 z 102 400 MB".
    usageOf: "{used} z {capacity}\u00a0MB",
    blocked: "Blokada",
    created: "Utworzone",
    expires: "Wygasa",
    lastLogin: "Ostatnie logowanie",
    edit: "Edytuj {name}",
    yes: "tak",
    no: "nie",
    empty: "Domena nie ma jeszcze kont. Utwórz pierwsze przyciskiem „Nowe konto”.",
    emptySearch: "Żadne konto nie pasuje do „{search}”. Zmień lub wyczyść wyszukiwanie.",
    loading: "Wczytywanie kont…",
    loadFailed: "Nie udało się wczytać kont: {error}",
    block: "Zablokuj",
    unblock: "Odblokuj",
    setCapacity: "Ustaw pojemność",
    spamOn: "Włącz antyspam",
    spamOff: "Wyłącz antyspam",
    confirmDelete: "Usunąć konto {name}? Poczta w skrzynce zostanie utracona. Tej operacji nie można cofnąć.",
    confirmDeleteMany: "Poczta w ich skrzynkach zostanie utracona. Tej operacji nie można cofnąć.",
    deleteTitle: "Usunąć konto?",
    create: "Utwórz konto",
    createTitle: "Nowe konto",
    closeCreate: "Zamknij formularz",
    password: "Hasło",
    passwordHint: "6-15 znaków, litera oraz cyfra lub znak specjalny.",
    created_ok: "Utworzono konto {email}.",
    nameHint: "Sama nazwa przed @{domain}: małe litery, cyfry oraz . - _ (od 2 do 32 znaków).",
    capacityHint: "W megabajtach.",
    cancel: "Anuluj",
    bulkCapacity: "Nowa pojemność (MB)",
    badgeBlocked: "zablokowane",
    badgeExpired: "wygasło",
    deleteGoesToo:
      "Razem z kontami znikną aliasy, które na nie wskazują, konta zostaną usunięte z list dyskusyjnych domeny, a catchall kierujący na któreś z nich zostanie wyłączony.",
    deleteGoesTooOne:
      "Razem z kontem znikną aliasy, które na nie wskazują, konto zostanie usunięte z list dyskusyjnych domeny, a catchall kierujący na nie zostanie wyłączony.",
    deleteChecking: "Sprawdzanie, co zostanie usunięte razem z kontem…",
    deleteCheckingMany: "Sprawdzanie, co zostanie usunięte razem z kontami…",
    deleteCheckFailed: "Nie udało się sprawdzić, co zostanie usunięte razem z kontem: {error}",
    deleteCheckFailedMany: "Nie udało się sprawdzić, co zostanie usunięte razem z kontami: {error}",
    deleteNothingElse:
      "Żaden alias nie wskazuje na usuwane konta, nie są na żadnej liście, a catchall ich nie dotyczy.",
    deleteNothingElseOne:
      "Żaden alias nie wskazuje na usuwane konto, nie jest ono na żadnej liście, a catchall go nie dotyczy.",
    deleteAlias: "Razem z kontem zniknie alias, który na nie wskazuje, wprost lub przez inny alias:",
    deleteAliases: "Razem z kontem znikną aliasy, które na nie wskazują, wprost lub przez inny alias ({count}):",
    deleteAliasMany: "Razem z kontami zniknie alias, który wskazuje na któreś z nich, wprost lub przez inny alias:",
    deleteAliasesMany: "Razem z kontami znikną aliasy, które na nie wskazują, wprost lub przez inny alias ({count}):",
    deleteCatchall: "Catchall kierujący pocztę na {address} zostanie wyłączony.",
    // "z 2 list", "z 5 list", "z 22 list": the genitive plural is one form from 2 up.
    deleteList: "Konto zostanie usunięte z tej listy dyskusyjnej domeny (jako subskrybent i moderator):",
    deleteLists: "Konto zostanie usunięte z {n} list dyskusyjnych domeny (jako subskrybent i moderator):",
    deleteListMany: "Konta zostaną usunięte z tej listy dyskusyjnej domeny (jako subskrybenci i moderatorzy):",
    deleteListsMany: "Konta zostaną usunięte z {n} list dyskusyjnych domeny (jako subskrybenci i moderatorzy):",
    deleteForward: "To konto przestanie przekierowywać pocztę na usuwane konto:",
    deleteForwards: "Te konta przestaną przekierowywać pocztę na usuwane konto ({count}):",
    deleteForwardMany: "To konto przestanie przekierowywać pocztę na usuwane konta:",
    deleteForwardsMany: "Te konta przestaną przekierowywać pocztę na usuwane konta ({count}):",
    bulkCreate: "Dodaj wiele kont",
    confirmBlockTitle: "Zablokować zaznaczone konta?",
    // The service refuses a whole bulk request naming the postmaster: the panel leaves it out and says so.
    skippedBlock: "Konto postmaster jest pomijane: tego konta nie można zablokować.",
    skippedDelete: "Konto postmaster jest pomijane: tego konta nie można usunąć.",
    confirmBlock:
      "Zablokować {count}? Ich otwarte sesje w panelu zostaną zakończone (użytkownicy zostaną wylogowani), a logowanie do poczty (IMAP, POP3, SMTP) i do panelu będzie odrzucane. Poczta nadal będzie do nich dostarczana, ale przekierowania, autoresponder i powiadomienia SMS zostaną wstrzymane. Blokadę zdejmuje przycisk „Odblokuj”.",
  },
  en: {
    title: PAGE_TITLES.en.accounts,
    intro: "Search, sort and change the accounts of {domain}.",
    name: "Name",
    description: "Description",
    capacity: "Capacity (MB)",
    usage: "Usage",
    usageOf: "{used} of {capacity}\u00a0MB",
    blocked: "Blocked",
    created: "Created",
    expires: "Expires",
    // A non-breaking hyphen (U+2011): the column header broke after "sign-" at 1280 and 1920 px (table-layout.spec.ts).
    lastLogin: "Last sign\u2011in",
    edit: "Edit {name}",
    yes: "yes",
    no: "no",
    empty: "The domain has no accounts yet. Create the first one with the “New account” button.",
    emptySearch: "No account matches “{search}”. Change or clear the search.",
    loading: "Loading accounts…",
    loadFailed: "The accounts could not be loaded: {error}",
    block: "Block",
    unblock: "Unblock",
    setCapacity: "Set capacity",
    spamOn: "Anti-spam on",
    spamOff: "Anti-spam off",
    confirmDelete: "Delete the account {name}? Its mailbox is lost. This cannot be undone.",
    confirmDeleteMany: "Their mailboxes are lost. This cannot be undone.",
    deleteTitle: "Delete the account?",
    create: "Create account",
    createTitle: "New account",
    closeCreate: "Close the form",
    password: "Password",
    passwordHint: "6-15 characters, a letter and a digit or a special character.",
    created_ok: "Account {email} created.",
    nameHint: "Just the name before @{domain}: lowercase letters, digits and . - _ (2 to 32 characters).",
    capacityHint: "In megabytes.",
    cancel: "Cancel",
    bulkCapacity: "New capacity (MB)",
    badgeBlocked: "blocked",
    badgeExpired: "expired",
    deleteGoesToo:
      "The aliases pointing at these accounts go with them, the accounts are taken off the domain's mailing lists, and a catchall delivering to one of them is switched off.",
    deleteGoesTooOne:
      "The aliases pointing at this account go with it, the account is taken off the domain's mailing lists, and a catchall delivering to it is switched off.",
    deleteChecking: "Checking what goes with the account…",
    deleteCheckingMany: "Checking what goes with the accounts…",
    deleteCheckFailed: "Could not check what goes with the account: {error}",
    deleteCheckFailedMany: "Could not check what goes with the accounts: {error}",
    deleteNothingElse:
      "No alias points at the accounts being deleted, they are on no list, and the catchall does not deliver to them.",
    deleteNothingElseOne:
      "No alias points at the account being deleted, it is on no list, and the catchall does not deliver to it.",
    deleteAlias: "The alias pointing at it, directly or through another alias, goes too:",
    deleteAliases: "The aliases pointing at it, directly or through another alias, go too ({count}):",
    deleteAliasMany: "The alias pointing at one of them, directly or through another alias, goes too:",
    deleteAliasesMany: "The aliases pointing at them, directly or through another alias, go too ({count}):",
    deleteCatchall: "The catchall delivering to {address} is switched off.",
    deleteList: "It is taken off this mailing list of the domain (as subscriber and moderator):",
    deleteLists: "It is taken off {n} mailing lists of the domain (as subscriber and moderator):",
    deleteListMany: "They are taken off this mailing list of the domain (as subscribers and moderators):",
    deleteListsMany: "They are taken off {n} mailing lists of the domain (as subscribers and moderators):",
    deleteForward: "This account stops forwarding to the account being deleted:",
    deleteForwards: "These accounts stop forwarding to the account being deleted ({count}):",
    deleteForwardMany: "This account stops forwarding to the accounts being deleted:",
    deleteForwardsMany: "These accounts stop forwarding to the accounts being deleted ({count}):",
    bulkCreate: "Add many accounts",
    confirmBlockTitle: "Block the selected accounts?",
    skippedBlock: "The postmaster account is left out: it cannot be blocked.",
    skippedDelete: "The postmaster account is left out: it cannot be deleted.",
    confirmBlock:
      "Block {count}? Their open panel sessions end (the users are signed out), and sign-ins to mail (IMAP, POP3, SMTP) and to the panel are refused. Mail is still delivered to them, but forwards, the autoresponder and SMS notifications are suspended. “Unblock” lifts the block.",
  },
};
