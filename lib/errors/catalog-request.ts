// The error catalog (lib/errors/catalog.ts): authentication, authorization, missing and existing records, the
// request's format and its parameters.
import { edgeEntry, entry, type CatalogEntry } from "./catalog-entry";

export const requestErrors = {
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
    "Too many failed logins for this account from this client address, or from this client address over all accounts; the password is not checked until `attributes.retry_after` seconds pass. Also the panel's first sign-in of an imported account when the process already has its few checks of imported hashes running or waiting (`retry_after` 1; nothing checked, nothing counted).",
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
    "An ordinary account sent a restricted field (description, capacity, expiration_date, forward_limit, alias_limit, blocked) with a value other than the stored one (a value the field's rule refuses included: it is never the stored one); `source` names it.",
  ),
  postmasterProtected: entry(
    "403.2",
    "authorization",
    "Konta postmaster nie można usunąć ani zablokować.",
    "The postmaster account cannot be deleted or blocked.",
    "DELETE of postmaster@<domain>, or setting blocked=1 or any expiration_date on it (only clearing it passes: a future date would lock the domain's administrator out once it came).",
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
    "The body is not valid JSON, or not UTF-8.",
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
    "The PostgreSQL server does not answer, is shutting down (a failover in progress) or has no connection left (max_connections); sent with Retry-After.",
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
    "page (a whole number 0-999999999), size (1-1000), sort (a summary field), sort_dir (asc|desc) or search (≤ 100 characters, no control character U+0000-U+001F or U+007F) is invalid; `source` names it.",
  ),
  invalidNameList: entry(
    "500.131",
    "validation",
    "Nieprawidłowa lista nazw w ścieżce.",
    "Invalid list of names in the path.",
    "A comma-separated name list is empty in places, repeats a name, or has more than 1000 names.",
  ),
} as const satisfies Record<string, CatalogEntry>;
