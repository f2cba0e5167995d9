// The panel's own error answers (/api/panel/**), in the shape of the catalog's entries. Not in catalog.ts on
// purpose: that catalog is the /api/v1 contract, and no /api/v1 request can produce these. No server imports: the
// panel's client shows their English text (lib/client/error-text.ts).
import type { CatalogEntry } from "./catalog";

const entry = (code: string, message: string, messageEn: string, condition: string): CatalogEntry => ({
  code,
  status: Number(code.split(".")[0]),
  category: "authorization",
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
} as const satisfies Record<string, CatalogEntry>;
