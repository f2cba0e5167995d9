// The panel's own error answers (/api/panel/**), in the shape of the catalog's entries. Not in catalog.ts on
// purpose: that catalog is the /api/v1 contract, and no /api/v1 request can produce these. No server imports: the
// panel's client shows their English text (lib/client/error-text.ts).
import type { CatalogEntry, ErrorCategory } from "./catalog";

const entry = (
  code: string,
  message: string,
  messageEn: string,
  condition: string,
  category: ErrorCategory = "authorization",
): CatalogEntry => ({
  code,
  status: Number(code.split(".")[0]),
  category,
  message,
  messageEn,
  condition,
});

export const panelErrors = {
  noSession: entry(
    "401.1",
    "Sesja wygasła lub nie istnieje. Zaloguj się ponownie.",
    "Your session has expired or does not exist. Please sign in again.",
    "A panel request without a live session cookie.",
  ),
  crossOrigin: entry(
    "403.2",
    "Żądanie spoza panelu zostało odrzucone.",
    "A request from outside the panel was refused.",
    "A mutating panel request whose Origin is not the panel's own.",
  ),
  currentPasswordWrong: entry(
    "500.307",
    "Obecne hasło jest nieprawidłowe.",
    "The current password is wrong.",
    "PUT /api/panel/password: current_password is missing or is not the account's password (counted as a failed login, with its lockout); `source` is current_password.",
    "validation",
  ),
  passwordUnchanged: entry(
    "500.308",
    "Nowe hasło jest takie samo jak obecne, więc hasło się nie zmieniło. Wpisz inne.",
    "The new password is the same as the current one, so the password has not changed. Type a different one.",
    "PUT /api/panel/password: password is the current password; nothing changes (the account's other sessions stay signed in); `source` is password.",
    "validation",
  ),
  currentPasswordRequired: entry(
    "403.2",
    "Własne hasło zmienisz w sekcji „Zmiana hasła” na stronie Moje konto, podając obecne hasło.",
    "Change your own password in the Password section of My account, giving the current password.",
    "A panel PUT of accounts that names the signed-in account (alone or among other names, in any path) with a new password, refused by the accounts service as a whole: the panel's password change asks for the current one (PUT /api/panel/password).",
  ),
  // --- two-step sign-in (lib/server/caller/totp.ts) ---
  twoFactorBadCode: entry(
    "403.1",
    "Nieprawidłowy kod. Wpisz 6 cyfr z aplikacji albo jeden z kodów zapasowych.",
    "Wrong code. Enter the 6 digits from the app or one of the recovery codes.",
    "The second step of the panel's sign-in, its set-up or its switching off got a code that is not the current TOTP code nor an unused recovery code. Counted per account like a wrong password: AUTH_MAX_FAILURES wrong codes over any number of sign-ins lock the second step (403.1 tooManyFailures, `retry_after`), and a right password does not reset the count.",
  ),
  twoFactorSetupBadCode: entry(
    "403.1",
    "Nieprawidłowy kod. Wpisz 6 cyfr, które aplikacja pokazuje teraz (kod zmienia się co 30 sekund).",
    "Wrong code. Enter the 6 digits the app shows now (the code changes every 30 seconds).",
    "Setting up the two-step sign-in (in My account, or at a sign-in the operator requires it for) got a code that is not the new key's current TOTP code. No recovery codes exist yet, so the message does not offer them.",
  ),
  twoFactorCodeUsed: entry(
    "403.1",
    "Ten kod został już użyty. Poczekaj na następny kod w aplikacji.",
    "This code was already used. Wait for the next code in the app.",
    "The second step of the panel's sign-in, or switching it off, got the current TOTP code a second time (each 30-second code signs in once); not counted as a wrong code.",
  ),
  twoFactorNoChallenge: entry(
    "401.1",
    "Czas na podanie kodu minął albo było zbyt wiele prób. Zaloguj się ponownie.",
    "The time to enter the code is over, or there were too many tries. Please sign in again.",
    "The second step of the sign-in without a live challenge (5 minutes, 5 tries, the same client address).",
  ),
  twoFactorRequired: entry(
    "403.2",
    "Operator serwera wymaga logowania dwuetapowego dla tego konta: nie można go wyłączyć.",
    "The server's operator requires two-step sign-in for this account: it cannot be switched off.",
    "Switching two-step sign-in off for a postmaster of a domain set with `domain set --require-2fa`.",
  ),
  twoFactorNotConfigured: entry(
    "500.100",
    "Logowanie dwuetapowe nie jest skonfigurowane na tym serwerze.",
    "Two-step sign-in is not configured on this server.",
    "TOTP_ENCRYPTION_KEY is not set to 32 bytes (64 hex digits or base64).",
    "internal",
  ),
} as const satisfies Record<string, CatalogEntry>;
