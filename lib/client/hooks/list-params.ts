// Paging, sorting and searching of the three list endpoints, as URL query text and back.
import type { ListEnvelope } from "@/lib/schemas/list-query";

export interface ListFilters {
  page: number;
  size: number;
  search: string;
  sort: string;
  dir: "asc" | "desc";
}

export const DEFAULT_PAGE_SIZE = 50;

export function listQueryString(f: ListFilters): string {
  const q = new URLSearchParams({
    page: String(f.page),
    size: String(f.size),
    sort: f.sort,
    sort_dir: f.dir,
  });
  if (f.search) q.set("search", f.search);
  return q.toString();
}

/**
 * The rows of a page, ordered by the requested sort. JavaScript moves all-digit keys of result_data first,
 * so the server's order is lost in the object and is restored here (contract §6).
 */
export function sortedRows<T extends Record<string, unknown>>(env: ListEnvelope<T>, f: ListFilters): T[] {
  const rows = Object.values(env.result_data);
  const key = f.sort;
  const sign = f.dir === "desc" ? -1 : 1;
  return rows.sort((a, b) => sign * (compareValues(a[key], b[key]) || compareValues(a.name, b.name)));
}

/** A scalar field as text; anything else (absent, object) as "". */
export const asText = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

/** Numbers (usage carries a % suffix) by value; text in code-point order, like SQLite's BINARY collation. */
function compareValues(a: unknown, b: unknown): number {
  const sa = asText(a);
  const sb = asText(b);
  const na = Number(sa.replace(/%$/, ""));
  const nb = Number(sb.replace(/%$/, ""));
  if (sa !== "" && sb !== "" && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}
