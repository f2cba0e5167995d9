// The error catalog (lib/errors/catalog.ts): mailing lists, domains, aliases and limits.
import { entry, type CatalogEntry } from "./catalog-entry";

export const domainErrors = {
  // --- mailing lists ---
  invalidListName: entry(
    "500.351",
    "validation",
    "Nieprawidłowa nazwa listy.",
    "Invalid list name.",
    "List name breaks the naming rules: a-z 0-9 / . -, 2-32 characters, letter or digit at both ends, no two symbols in a row.",
  ),
  invalidListText: entry(
    "500.352",
    "validation",
    "Nieprawidłowy opis, temat lub szablon wiadomości listy.",
    "Invalid description, subject or message template of the list.",
    "description or a subject exceeds 255 characters, a body exceeds 10000, a request template lacks the {{confirm_link}} placeholder, or a control character is in the description or a subject (in a body: one other than line breaks and tabs).",
  ),
  invalidListOption: entry(
    "500.353",
    "validation",
    "Nieprawidłowe ustawienie listy.",
    "Invalid list setting.",
    'privacy_mode (0-2), replyto_mode (0-2), replyto_email (lowercase address, required for mode 2), replyto_catchall (0-1), confirm_url (http(s) URL or ""), autosubscribe_enabled (0-1), accounts or moderators (arrays of addresses, at most 100000; at least one moderator for privacy_mode 1 in the panel) is invalid.',
  ),
  listAddressIsList: entry(
    "500.353",
    "validation",
    "Adres prowadzi do listy dyskusyjnej tego serwera, a lista nie przyjmuje wiadomości rozsyłanych przez inną listę: ta lista nie dostałaby tych wiadomości.",
    "The address leads to a mailing list of this server, and a list does not take the messages another list sends out: that list would not get them.",
    "A subscriber in `accounts` or a moderator in `moderators` (a list's POST, or a PUT adding it), or `replyto_email` while the list forwards to it (`privacy_mode` 1 and `replyto_catchall` 1, set by the request), is a list of this server or leads to one through aliases, the catchall or a forward-only account's forwards, within the domains of the list's customer (docs/lists.md, \"Nested lists\"); `attributes.leads_to_list` names up to 10 such addresses (`count`: how many when more), each with the list it reaches when both are in the list's own domain. Members already on the list are not checked again.",
  ),
  listRequestPending: entry(
    "429.1",
    "authorization",
    "Prośba o potwierdzenie dla tego adresu już czeka w jego skrzynce. Użyj linku z tej wiadomości albo spróbuj ponownie, gdy wygaśnie.",
    "A confirmation request for this address is already waiting in its mailbox. Use the link in that message, or try again once it expires.",
    "The list's page (lists service, `/lists/<address>`) was asked to send a confirmation request for a list and address that already have one pending (unused and unexpired, LISTS_TOKEN_HOURS); nothing is sent.",
  ),
  listRequestBudget: entry(
    "429.2",
    "authorization",
    "Z tego adresu IP wysłano w ciągu godziny zbyt wiele próśb o potwierdzenie. Spróbuj ponownie później.",
    "Too many confirmation requests from this IP address within an hour. Try again later.",
    "The list's page was asked for more than LISTS_REQUESTS_PER_HOUR confirmation requests (5 by default, over all lists) by one client address within an hour; nothing is sent.",
  ),
  // --- domains, aliases, limits ---
  invalidCatchallType: entry(
    "500.361",
    "validation",
    "Typ konta domyślnego przyjmuje wartości 0, 1, 2 lub 3.",
    "The catch-all type accepts 0, 1, 2 or 3.",
    "catchall_type is not 0-3.",
  ),
  invalidCatchallAddress: entry(
    "500.362",
    "validation",
    "Adres konta domyślnego nie pasuje do wybranego typu.",
    "The catch-all address does not match the chosen type.",
    'catchall_address is not: "" for type 0; an address of this domain for 1; an address in another domain (existing, if that domain is served here) for 2; another domain for 3.',
  ),
  catchallAccountMissing: entry(
    "500.362",
    "validation",
    "Nie ma takiego konta w domenie: konto domyślne musi być istniejącym kontem.",
    "There is no such account in the domain: the catch-all must be an existing account.",
    "catchall_type 1 with an address of this domain that is not an account.",
  ),
  invalidDomainName: entry(
    "500.363",
    "validation",
    "Nieprawidłowa nazwa domeny.",
    "Invalid domain name.",
    "The domain in the path is not a lowercase DNS name; or a new domain's name is over 221 characters, so that its addresses (a name of up to 32, @, the domain) would pass the 254 of an address.",
  ),
  accountLimitReached: entry(
    "500.364",
    "validation",
    "Osiągnięto limit kont w domenie.",
    "The domain's account limit has been reached.",
    "Creating an account would exceed the domain's account_limit.",
  ),
  aliasLimitReached: entry(
    "500.365",
    "validation",
    "Osiągnięto limit aliasów w domenie.",
    "The domain's alias limit has been reached.",
    "Creating aliases would exceed the domain's alias_limit.",
  ),
  mailinglistLimitReached: entry(
    "500.366",
    "validation",
    "Osiągnięto limit list dyskusyjnych w domenie.",
    "The domain's mailing list limit has been reached.",
    "Creating a list would exceed the domain's mailinglist_limit.",
  ),
  capacityLimitReached: entry(
    "500.367",
    "validation",
    "Przekroczono limit pojemności domeny.",
    "The domain's capacity limit would be exceeded.",
    "Creating an account or raising capacity would make the sum of capacities exceed capacity_limit; `attributes` give capacity_limit, free_mb (MB not yet given to accounts before the change) and requested (the sum it would make).",
  ),
  invalidAliasTarget: entry(
    "500.368",
    "validation",
    "Adres docelowy aliasu jest nieprawidłowy: podaj pełny adres (nazwa@domena), inny niż sam alias.",
    "The alias target address is invalid: give a full address (name@domain), other than the alias itself.",
    "target is missing, not a valid address, or the alias itself.",
  ),
  aliasTargetMissing: entry(
    "500.368",
    "validation",
    "Adres docelowy aliasu nie istnieje na tym serwerze.",
    "The alias target does not exist on this server.",
    "target is an address of the alias's own domain that is no account, alias or list of it; `attributes.target` names it. Other domains' addresses, hosted here or not, are not checked (contract §9).",
  ),
} as const satisfies Record<string, CatalogEntry>;
