// The page numbers of the three list endpoints and the panel's tables. Free of zod, so that the panel's first load
// (lib/client/hooks/page-params.ts) does not bring the validation library in with it.

/** The highest page number anything takes: page × the largest page size stays a safe integer for every engine. */
export const MAX_PAGE = 999_999_999;
/** A page number as the API takes it (pageQuerySchema). */
export const PAGE_DIGITS = /^\d{1,9}$/;

/**
 * A page number asked for in a panel page's URL (or a CLI option): anything that is not a whole number 0..MAX_PAGE
 * (negative, fractional, `1e308`, twenty nines) is clamped into that range, so a hand-edited URL shows a page.
 * The API refuses the same values instead (pageQuerySchema: 500.130).
 */
export function clampPage(raw: string | number | null | undefined): number {
  const text = typeof raw === "number" ? String(raw) : (raw ?? "").trim();
  if (/^\d+$/.test(text)) return PAGE_DIGITS.test(text) ? Number(text) : MAX_PAGE;
  return 0;
}
