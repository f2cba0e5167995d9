// The one catalog of API errors: code, HTTP status, category, Polish message (what the API sends), its English
// text (what the panel shows in English, see lib/client/error-text.ts) and the condition that raises it.
// Services throw by key (`throw apiError("accountNotFound", ...)`); docs/errors.md is generated from this table.
// No server imports: the panel shows the same messages.
import { EDGE_ERRORS } from "@/lib/runtime/edge.mjs";

export type ErrorCategory = "internal" | "resource_missing" | "resource_existing" | "authorization" | "validation";

export interface CatalogEntry {
  code: string;
  status: number;
  category: ErrorCategory;
  /** Polish text sent to clients. */
  message: string;
  /** The same text in English; never sent by the API, shown by the panel when its language is English. */
  messageEn: string;
  /** English description of when the error is raised (for the docs). */
  condition: string;
}

const entry = (
  code: string,
  category: ErrorCategory,
  message: string,
  messageEn: string,
  condition: string,
): CatalogEntry => ({ code, status: Number(code.split(".")[0]), category, message, messageEn, condition });

/** An error lib/runtime/server.mjs also answers by itself, before Next runs: its code and text are in edge.mjs. */
const edgeEntry = (key: keyof typeof EDGE_ERRORS, messageEn: string, condition: string): CatalogEntry => {
  const { code, category, message } = EDGE_ERRORS[key];
  return entry(code, category, message, messageEn, condition);
};

export const errorCatalog = {
  // --- authentication and authorization ---
  missingCredentials: entry(
    "401.1",
    "authorization",
    "Wymagana autoryzacja: brak nagłówka Authorization typu Basic.",
    "Authorization required: no Basic Authorization header.",
    "No Authorization header, or not Basic, or not decodable.",
  ),
  badCredentials: entry(
    "403.1",
    "authorization",
    "Nieprawidłowy adres lub hasło albo konto jest zablokowane lub wygasło.",
    "Wrong address or password, or the account is blocked or expired.",
    "Unknown account, wrong password digest, blocked or expired account.",
  ),
  tooManyFailures: entry(
    "403.1",
    "authorization",
    "Zbyt wiele nieudanych prób logowania. Spróbuj ponownie później.",
    "Too many failed login attempts. Try again later.",
    "Too many failed logins for this account from this client address, or from this client address over all accounts; the password is not checked until `attributes.retry_after` seconds pass.",
  ),
  forbidden: entry(
    "403.2",
    "authorization",
    "Brak uprawnień do tej operacji.",
    "You are not allowed to do this.",
    "Authenticated, but the operation is not allowed for this account (another domain, another account, a domain-administrator endpoint).",
  ),
  restrictedField: entry(
    "403.2",
    "authorization",
    "Tego pola może zmienić tylko administrator domeny.",
    "Only the domain administrator can change this field.",
    "An ordinary account sent a restricted field (description, capacity, expiration_date, forward_limit, alias_limit, blocked) with a value other than the stored one; `source` names it.",
  ),
  postmasterProtected: entry(
    "403.2",
    "authorization",
    "Konta postmaster nie można usunąć ani zablokować.",
    "The postmaster account cannot be deleted or blocked.",
    "DELETE of postmaster@<domain>, or setting blocked=1 or a past expiration_date on it.",
  ),
  clientAddressDenied: entry(
    "403.3",
    "authorization",
    "Połączenia z tego adresu IP nie są dozwolone.",
    "Connections from this IP address are not allowed.",
    "The TCP peer address is not in ALLOWED_CLIENT_IPS.",
  ),
  // --- missing and existing resources ---
  domainNotFound: entry(
    "404.1",
    "resource_missing",
    "Domena nie istnieje.",
    "The domain does not exist.",
    "The domain is not served here. The API never answers it (contract §9: a caller who does not administer the domain in the path gets 403.2, hosted or not); the operator CLI does.",
  ),
  recordNotFound: entry(
    "404.2",
    "resource_missing",
    "Wskazane konto, alias lub lista nie istnieje.",
    "The account, alias or list does not exist.",
    "The named account, alias or mailing list does not exist in the domain; `source` is the name.",
  ),
  endpointNotFound: edgeEntry(
    "endpointNotFound",
    "There is no such API resource.",
    "The path matches no endpoint of /api/v1.",
  ),
  domainTaken: entry(
    "409.1",
    "resource_existing",
    "Ta domena jest już obsługiwana na tym serwerze.",
    "This domain is already hosted on this server.",
    "Adding a domain (CLI `domain add`) that is already hosted.",
  ),
  nameTaken: entry(
    "409.1",
    "resource_existing",
    "Ten adres jest już zajęty w domenie (konto, alias lub lista).",
    "This address is already taken in the domain (account, alias or list).",
    "Creating an account, alias or list whose name is already an account, alias or list of the domain.",
  ),
  // --- request format ---
  invalidJson: entry(
    "400.1",
    "internal",
    "Treść żądania nie jest poprawnym dokumentem JSON.",
    "The request body is not a valid JSON document.",
    "The body is not valid JSON.",
  ),
  // Sent by lib/runtime/server.mjs itself (the request never reaches Next); e2e/api/protocol.test.ts keeps both equal.
  malformedRequest: edgeEntry(
    "malformedRequest",
    "Invalid HTTP request (bad request line or header).",
    "The request line or a header is not valid HTTP, e.g. raw non-ASCII bytes in the URL (percent-encode them).",
  ),
  invalidCallback: entry(
    "400.2",
    "internal",
    "Nieprawidłowa nazwa funkcji callback (JSONP).",
    "Invalid callback function name (JSONP).",
    "`callback` does not match ^[A-Za-z_$][A-Za-z0-9_$.]{0,63}$.",
  ),
  methodNotAllowed: entry(
    "405.1",
    "internal",
    "Ta metoda HTTP nie jest obsługiwana dla tego zasobu.",
    "This HTTP method is not supported for this resource.",
    "The method is not defined for the path.",
  ),
  jsonpGetOnly: entry(
    "501.1",
    "internal",
    "JSONP obsługuje wyłącznie żądania GET.",
    "JSONP supports GET requests only.",
    "`callback` given on a method other than GET.",
  ),
  databaseBusy: entry(
    "503.1",
    "internal",
    "Baza danych jest chwilowo zajęta. Spróbuj ponownie.",
    "The database is busy at the moment. Try again.",
    "SQLite stayed locked longer than the busy timeout.",
  ),
  databaseUnavailable: entry(
    "503.2",
    "internal",
    "Baza danych jest chwilowo niedostępna. Spróbuj ponownie za chwilę.",
    "The database is unavailable at the moment. Try again shortly.",
    "The PostgreSQL server does not answer or is shutting down (a failover in progress); sent with Retry-After.",
  ),
  databaseReadOnly: entry(
    "503.3",
    "internal",
    "Ta operacja wymaga głównej bazy danych; ta jest tylko do odczytu (standby).",
    "This operation needs the primary database; this one is read-only (a standby).",
    "A write reached a PostgreSQL standby (DATABASE_URL names a replica); reads are answered. Sent with Retry-After.",
  ),
  unexpected: entry(
    "500.100",
    "internal",
    "Wystąpił nieoczekiwany błąd serwera.",
    "An unexpected server error occurred.",
    "Any failure not described by another code (logged on the server).",
  ),
  bodyNotObject: entry(
    "500.110",
    "internal",
    "Treść żądania musi być obiektem JSON.",
    "The request body must be a JSON object.",
    "The body is valid JSON but not an object.",
  ),
  bodyTooLarge: entry(
    "500.111",
    "internal",
    "Treść żądania jest za duża (limit 1 MB).",
    "The request body is too large (limit 1 MB).",
    "The body exceeds 1 MiB.",
  ),
  unknownField: entry(
    "500.115",
    "internal",
    "Nieznane pole w treści żądania.",
    "Unknown field in the request body.",
    "The body holds a field that the resource does not have; `source` names it.",
  ),
  // --- malformed parameters ---
  invalidQuery: entry(
    "500.130",
    "validation",
    "Nieprawidłowy parametr zapytania.",
    "Invalid query parameter.",
    "page (integer ≥ 0), size (1-1000), sort (a summary field), sort_dir (asc|desc) or search (≤ 100 characters) is invalid; `source` names it.",
  ),
  invalidNameList: entry(
    "500.131",
    "validation",
    "Nieprawidłowa lista nazw w ścieżce.",
    "Invalid list of names in the path.",
    "A comma-separated name list is empty in places, repeats a name, or has more than 1000 names.",
  ),
  // --- accounts ---
  invalidAccountName: entry(
    "500.301",
    "validation",
    "Nieprawidłowa nazwa konta.",
    "Invalid account name.",
    "Account (or alias) name breaks the naming rules: a-z 0-9 . - _, 2-32 characters, letter or digit at both ends, no two symbols in a row.",
  ),
  invalidDescription: entry(
    "500.302",
    "validation",
    "Opis konta może mieć najwyżej 48 znaków, bez znaków sterujących.",
    "The account description can have at most 48 characters, with no control characters.",
    "description is not a string of at most 48 characters, or holds a control character or a bidirectional control (U+202A-U+202E, U+2066-U+2069) (contract §9).",
  ),
  invalidCapacity: entry(
    "500.303",
    "validation",
    "Pojemność musi być liczbą całkowitą MB od 1 do 1048576.",
    "Capacity must be a whole number of MB from 1 to 1048576.",
    "capacity is empty, not an integer, or outside 1..1048576.",
  ),
  invalidPassword: entry(
    "500.304",
    "validation",
    "Hasło musi mieć 6-15 znaków, co najmniej jedną literę oraz cyfrę lub znak specjalny (~!@#%^&*()_+=-;,./<>?:[]{}).",
    "The password must have 6-15 characters, at least one letter and a digit or special character (~!@#%^&*()_+=-;,./<>?:[]{}).",
    "password breaks the password rules, or is missing when an account is created.",
  ),
  passwordMismatch: entry(
    "500.305",
    "validation",
    "Powtórzone hasło różni się od hasła.",
    "The repeated password differs from the password.",
    "password_retype is not empty and differs from password.",
  ),
  invalidNotificationLevel: entry(
    "500.306",
    "validation",
    "Poziom powiadomienia musi być liczbą całkowitą od 0 do 100.",
    "The notification level must be a whole number from 0 to 100.",
    "usage_notification_level is not an integer 0..100.",
  ),
  invalidExpirationDate: entry(
    "500.311",
    "validation",
    "Data wygaśnięcia musi mieć format RRRR-MM-DD lub być pusta.",
    "The expiration date must be YYYY-MM-DD or empty.",
    'expiration_date is not a real YYYY-MM-DD date or "".',
  ),
  invalidFlag: entry(
    "500.312",
    "validation",
    "Pole przyjmuje wartości 0 lub 1.",
    "The field accepts 0 or 1.",
    "keep_mail or blocked is not 0 or 1.",
  ),
  invalidForward: entry(
    "500.313",
    "validation",
    "Adres przekierowania jest nieprawidłowy.",
    "A forwarding address is invalid.",
    "forwards is not an array of distinct valid addresses other than the account's own (at most 50); `attributes.invalid` and `attributes.duplicates` quote the bad entries, `attributes.max_entries` the limit passed.",
  ),
  tooManyForwards: entry(
    "500.314",
    "validation",
    "Przekroczono dozwoloną liczbę adresów przekierowania.",
    "Too many forwarding addresses.",
    "An ordinary account sets more forwards than its forward_limit.",
  ),
  invalidPerAccountLimit: entry(
    "500.315",
    "validation",
    "Limit przekierowań i aliasów musi być liczbą całkowitą od 0 do 1000.",
    "The forward and alias limits must be whole numbers from 0 to 1000.",
    "forward_limit or alias_limit is not an integer 0..1000.",
  ),
  invalidAliases: entry(
    "500.316",
    "validation",
    "Nieprawidłowa lista aliasów konta.",
    "Invalid list of the account's aliases.",
    "aliases is not an array of addresses in the account's domain with valid names, or an ordinary account exceeds its alias_limit or adds a reserved local part (postmaster, abuse, admin, administrator, hostmaster, webmaster, root, ssladmin, security, mailer-daemon, compared case-insensitively with `_` and `.` read as `-`; `attributes.reserved` is true).",
  ),
  invalidDeleteAfter: entry(
    "500.317",
    "validation",
    "Liczba dni musi być liczbą całkowitą od 0 do 3650.",
    "The number of days must be a whole number from 0 to 3650.",
    "inbox_delete_after, trash_delete_after or spam_delete_after is not an integer 0..3650.",
  ),
  invalidSpamEnabled: entry(
    "500.321",
    "validation",
    "Pole spam_enabled przyjmuje wartości 0 lub 1.",
    "The spam_enabled field accepts 0 or 1.",
    "spam_enabled is not 0 or 1.",
  ),
  invalidSpamRule: entry(
    "500.322",
    "validation",
    "Reguła spamu musi mieć wartość tag lub move.",
    "The spam rule must be tag or move.",
    "spam_rule is not tag or move.",
  ),
  invalidSpamHits: entry(
    "500.323",
    "validation",
    "Czułość filtra musi mieć wartość 2, 5, 7 lub 9.",
    "The filter sensitivity must be 2, 5, 7 or 9.",
    "spam_hits is not 2, 5, 7 or 9.",
  ),
  invalidSpamListEntry: entry(
    "500.324",
    "validation",
    "Lista antyspamowa może zawierać tylko poprawne adresy e-mail lub domeny.",
    "An anti-spam list may hold only valid e-mail addresses or domains.",
    "A spam list is not an array of valid addresses or domains (at most 1000 entries).",
  ),
  invalidSpamSwitch: entry(
    "500.325",
    "validation",
    "Przełącznik mechanizmu antyspamowego przyjmuje wartości -1, 0 lub 1.",
    "An anti-spam switch accepts -1, 0 or 1.",
    "spam_rbl_enabled, spam_spf_enabled or spam_greylist_enabled is not -1, 0 or 1.",
  ),
  invalidSmsText: entry(
    "500.326",
    "validation",
    "Nieprawidłowy numer telefonu, login lub hasło bramki SMS.",
    "Invalid phone number, login or password of the SMS gateway.",
    "sms_phone_number_N is not a phone number (+ and 6-15 digits; spaces and dashes are dropped) or an address, or sms_login_N / sms_password_N is longer than 64 characters; or one of them holds a control character.",
  ),
  invalidSmsOption: entry(
    "500.327",
    "validation",
    "Nieprawidłowy operator, sposób wysyłki lub liczba SMS.",
    "Invalid operator, sending mode or number of text messages.",
    "sms_operator_N is not 0, 11-13, 21-23, 31-33 or 51; sms_send_to not 0-1; sms_cnt not 0-3.",
  ),
  invalidAutoresponderMode: entry(
    "500.331",
    "validation",
    "Tryb autorespondera przyjmuje wartości 0 lub 1.",
    "The autoresponder mode accepts 0 or 1.",
    "autoresponder_mode is not 0 or 1.",
  ),
  invalidAutoresponder: entry(
    "500.332",
    "validation",
    "Nieprawidłowe daty lub treść autorespondera.",
    "Invalid autoresponder dates or text.",
    'A date is not YYYY-MM-DD or "", or the body exceeds 10000 characters or holds a control character other than line breaks and tabs.',
  ),
  autoresponderEndBeforeStart: entry(
    "500.332",
    "validation",
    "Data końca autorespondera jest wcześniejsza niż data początku.",
    "The autoresponder's end date is before its start date.",
    "autoresponder_end_date (as sent or stored) precedes autoresponder_start_date; `source` is autoresponder_end_date.",
  ),
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
    "The domain in the path is not a lowercase DNS name.",
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

export type ErrorKey = keyof typeof errorCatalog;
