// Paging, sorting and searching of the three list endpoints, as URL query text and back.
import { clampPage } from "@/lib/schemas/page-number";

export interface PageFilters {
  /** The page's index as the API counts it, from 0 (the URL shows it from 1: pageFromUrl, pageForUrl). */
  page: number;
  size: number;
  search: string;
  sort: string;
  dir: "asc" | "desc";
}

// 25 rows: the first page of a table renders and hydrates fast on a phone (Lighthouse mobile on /accounts, median
// of 3 in an A/B: 88 with 50 rows, 94 with 25); the pager offers more.
export const DEFAULT_PAGE_SIZE = 25;
/** The page sizes the pager offers; any other size in the URL means the default. */
export const PAGE_SIZES = [25, 50, 100, 200];

/**
 * A panel page's `?page=` is the number its pager shows, from 1; the API's `page` counts from 0. Absent, 0 (an old
 * 0-based link's first page) or not a number: the first page (docs/panel.md).
 */
export const pageFromUrl = (raw: string | null | undefined): number => Math.max(0, clampPage(raw) - 1);

/** The URL's `page` for a page index from 0; the first page (index 0) needs none. */
export const pageForUrl = (index: number): string | null => (index > 0 ? String(index + 1) : null);

/**
 * The list's filters from the page URL's query (?search, sort, dir, size, page). One rule for the browser
 * (useSearchParams) and the server component that renders the first page, so both ask for the same page.
 */
export function filtersFromUrl(
  params: { get(key: string): string | null },
  sortFields: readonly string[],
): PageFilters {
  const sort = params.get("sort") ?? "";
  const size = Number(params.get("size"));
  return {
    page: pageFromUrl(params.get("page")),
    size: PAGE_SIZES.includes(size) ? size : DEFAULT_PAGE_SIZE,
    search: params.get("search") ?? "",
    sort: sortFields.includes(sort) ? sort : "name",
    dir: params.get("dir") === "desc" ? "desc" : "asc",
  };
}

export function pageQueryString(f: PageFilters): string {
  const q = new URLSearchParams({
    page: String(f.page),
    size: String(f.size),
    sort: f.sort,
    sort_dir: f.dir,
  });
  if (f.search) q.set("search", f.search);
  return q.toString();
}

/** A scalar field as text; anything else (absent, object) as "". */
export const asText = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
