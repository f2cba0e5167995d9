import "server-only";
// The paged, searched, sorted list behind GET emails|aliases|mailinglists/<domain> (contract §6): the query parsed
// at the HTTP edge, the page read by the engine's dialect (db/sqlite/page-rows.ts: FTS5 trigrams and a planner
// tuned to SQLite; db/pg/dialect.ts: pg_trgm), the envelope built here.
import type { Db } from "@/db/client";
import { dialectOf, type ForcedPlan, type PageSpec } from "@/db/dialect";
import { apiError } from "@/lib/errors/api-error";
import { sortColumnOf, type ListColumns } from "@/lib/schemas/list-columns";
import { pageQuerySchema, type PageEnvelope, type PageQuery } from "@/lib/schemas/page-query";
import { orderedRecord } from "../http/ordered-json";

export type { ForcedPlan, PageSpec };
export { MAX_TOTALS, planFor, sortIndex, walkTestFor } from "@/db/sqlite/page-rows";

// Built once per list kind: building a zod schema costs far more than using it (about 1 ms per request).
const schemas = new WeakMap<readonly string[], ReturnType<typeof pageQuerySchema>>();

/**
 * Parses page/size/search/sort/sort_dir; 500.130 naming the bad parameter. The search is a substring (contract §6:
 * an alias's target address finds the alias). With `domainName`, a search for an address of that domain, whole or
 * still being typed ("marta.krajewska@", "marta.krajewska@exa"), that matches nothing as a substring finds the names
 * that address is a part of instead: those ending in its local part (the records' names are stored without the
 * domain).
 */
export function parsePageQuery(
  query: URLSearchParams,
  sortFields: readonly [string, ...string[]],
  domainName?: string,
): PageQuery {
  const raw: Record<string, string> = {};
  for (const key of ["page", "size", "search", "sort", "sort_dir"]) {
    const value = query.get(key);
    if (value !== null) raw[key] = value;
  }
  let schema = schemas.get(sortFields);
  if (!schema) schemas.set(sortFields, (schema = pageQuerySchema(sortFields)));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw apiError("invalidQuery", String(parsed.error.issues[0]?.path[0] ?? "query"));
  const q = parsed.data;
  // Control characters were refused above (the search key separates the texts with \u0001).
  const search = (q.search ?? "").trim().normalize("NFC").toLowerCase();
  const at = search.lastIndexOf("@");
  let searchIfNone: string | undefined;
  if (domainName && at >= 0 && domainName.toLowerCase().startsWith(search.slice(at + 1))) {
    // The search key puts \u0001 right after the name, so "<local>\u0001" is "the name ends in <local>".
    searchIfNone = at === 0 ? "" : `${search.slice(0, at)}\u0001`;
  }
  return {
    page: q.page ?? 0,
    size: q.size ?? 50,
    search,
    ...(searchIfNone === undefined ? {} : { searchIfNone }),
    sort: q.sort ?? "name",
    sortDir: q.sort_dir ?? "asc",
  };
}

/** What `search` matches: the searchable texts of a record, composed (NFC, as searches are) and lowercased. */
export const searchKey = (...parts: string[]) => parts.join("\u0001").normalize("NFC").toLowerCase();

/** `force` is for tests, which check both plans and both walk tests against the definition. */
export async function readPage<Row>(
  db: Db,
  spec: PageSpec<Row>,
  domainId: number,
  q: PageQuery,
  force: ForcedPlan = {},
): Promise<PageEnvelope<unknown>> {
  let { total, rows } = await dialectOf(db).pageRows(db, spec, domainId, q, force);
  if (total === 0 && q.searchIfNone !== undefined)
    ({ total, rows } = await dialectOf(db).pageRows(db, spec, domainId, { ...q, search: q.searchIfNone }, force));
  const data = orderedRecord(rows.map((row) => [(row as { name: string }).name, spec.toItem(row)] as const));
  return { result_info: { total, fetched: rows.length, page_size: q.size, page: q.page }, result_data: data };
}

type ColumnRow = Record<string, unknown>;
const specs = new WeakMap<ListColumns, Omit<PageSpec<ColumnRow>, "toItem" | "table">>();

/** The page of a list whose item is described by `columns` (lib/schemas/list-columns.ts), for `domainName`. */
export function columnsSpec(table: string, columns: ListColumns, domainName: string): PageSpec<ColumnRow> {
  let fixed = specs.get(columns);
  if (!fixed) {
    const read = Object.values(columns).flatMap((c) => (c.column === null || c.column === "name" ? [] : [c.column]));
    fixed = {
      columns: ["name", ...new Set(read)].join(", "),
      sortColumns: Object.fromEntries(Object.entries(columns).map(([k, c]) => [k, sortColumnOf(c)])),
    };
    specs.set(columns, fixed);
  }
  const entries = Object.entries(columns);
  return {
    table,
    ...fixed,
    toItem: (row) => {
      const item: Record<string, unknown> = {};
      for (const [key, c] of entries) {
        const value = c.column === null ? domainName : row[c.column];
        const kind = c.kind ?? "text";
        item[key] = kind === "text" ? value : kind === "percent" ? `${String(value)}%` : String(value);
      }
      return item;
    },
  };
}
