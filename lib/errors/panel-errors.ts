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
  currentPasswordRequired: entry(
    "403.2",
    "Własne hasło zmienisz w sekcji „Zmiana hasła” na stronie Moje konto, podając obecne hasło.",
    "Change your own password in the Password section of My account, giving the current password.",
    "A panel PUT of accounts that names the signed-in account (alone or among other names, in any path) with a new password, refused by the accounts service as a whole: the panel's password change asks for the current one (PUT /api/panel/password).",
  ),
} as const satisfies Record<string, CatalogEntry>;
