// The one place that turns an error into the text the panel shows in its current language. The API's messages are
// Polish; in English the panel shows the catalog's `messageEn` of the entry with the same code AND Polish message
// (a few codes have several entries, e.g. 403.1 and 403.2). A message the catalog does not know is shown as sent.
// Components use them through useErrorText() (lib/client/hooks/use-error-text.ts); plain functions here so that
// unit tests need no React.
import type { ErrorBody } from "@/lib/errors/api-error";
import { errorCatalog, type ErrorKey } from "@/lib/errors/catalog";
import { panelErrors } from "@/lib/errors/panel-errors";
import type { Locale } from "@/lib/i18n";
import { PanelApiError } from "./api";

const ENTRIES = [...Object.values(errorCatalog), ...Object.values(panelErrors)];
const entryKey = (code: string | undefined, message: string) => `${code ?? ""}\u0000${message}`;
const BY_CODE_AND_MESSAGE = new Map(ENTRIES.map((e) => [entryKey(e.code, e.message), e]));

/** The text of one API error body (or one of its `children`) in `locale`. */
export function errorBodyText(body: Pick<ErrorBody, "code" | "message">, locale: Locale): string {
  if (locale === "pl") return body.message;
  return BY_CODE_AND_MESSAGE.get(entryKey(body.code, body.message))?.messageEn ?? body.message;
}

/** A catalog message by key (the panel's own checks that mirror an API rule), in `locale`. */
export const catalogText = (key: ErrorKey, locale: Locale): string =>
  locale === "en" ? errorCatalog[key].messageEn : errorCatalog[key].message;

/** Any failure as text: an API error with its code, e.g. "Invalid account name. (500.301)", else its message. */
export function failureText(err: unknown, locale: Locale): string {
  if (err instanceof PanelApiError) return `${errorBodyText(err.body, locale)} (${err.body.code})`;
  return err instanceof Error ? err.message : String(err);
}
