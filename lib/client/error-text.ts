// The one place that turns an error into the text the panel shows in its current language. The API's messages are
// Polish; in English the panel shows the catalog's `messageEn` of the entry with the same code AND Polish message
// (a few codes have several entries, e.g. 403.1 and 403.2). A message the catalog does not know is shown as sent.
// Components use them through useErrorText() (lib/client/hooks/use-error-text.ts); plain functions here so that
// unit tests need no React.
import type { ErrorBody } from "@/lib/errors/api-error";
import { errorCatalog, type ErrorKey } from "@/lib/errors/catalog";
import { errorDetailText } from "@/lib/errors/details";
import { panelErrors } from "@/lib/errors/panel-errors";
import type { Locale } from "@/lib/i18n";
import { PanelApiError } from "./api";

const ENTRIES = [...Object.values(errorCatalog), ...Object.values(panelErrors)];
const entryKey = (code: string | undefined, message: string) => `${code ?? ""}\u0000${message}`;
const BY_CODE_AND_MESSAGE = new Map(ENTRIES.map((e) => [entryKey(e.code, e.message), e]));

/**
 * The text of one API error body (or one of its `children`) in `locale`: the catalog's message, then what its
 * `attributes` say (the bad entries, the limit and the room left; lib/errors/details.ts).
 */
export function errorBodyText(body: Pick<ErrorBody, "code" | "message" | "attributes">, locale: Locale): string {
  const message =
    locale === "pl"
      ? body.message
      : (BY_CODE_AND_MESSAGE.get(entryKey(body.code, body.message))?.messageEn ?? body.message);
  const detail = errorDetailText(body.attributes, locale);
  return detail ? `${message} ${detail}` : message;
}

/** A catalog message by key (the panel's own checks that mirror an API rule), in `locale`. */
export const catalogText = (key: ErrorKey, locale: Locale): string =>
  locale === "en" ? errorCatalog[key].messageEn : errorCatalog[key].message;

/**
 * Any failure as text, without codes: people read the message, support reads the codes (errorCodes, shown in a
 * details element).
 */
export function failureText(err: unknown, locale: Locale): string {
  if (err instanceof PanelApiError) return errorBodyText(err.body, locale);
  return err instanceof Error ? err.message : String(err);
}

/** The codes of a failure, its children's included, for support ("409.1", "500.313 forwards"). */
export function errorCodes(err: unknown): string[] {
  if (!(err instanceof PanelApiError)) return [];
  const all = [err.body, ...(err.body.children ?? [])];
  return [...new Set(all.map((e) => (e.source ? `${e.code} ${e.source}` : e.code)))];
}
