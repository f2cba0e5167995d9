import "server-only";
// The paged, searched, sorted list behind GET emails|aliases|mailinglists/<domain> (contract §6).
// Everything happens in SQL on the (domain_id, <column>, name) indexes; statements are prepared once per shape.
import type { Statement } from "better-sqlite3";
import type { Db } from "@/db/client";
import { apiError } from "@/lib/errors/api-error";
import { listQuerySchema, type ListEnvelope, type ListQuery } from "@/lib/schemas/list-query";

export interface ListSpec<Row> {
  table: string;
  /** The summary columns to select. */
  columns: string;
  /** Sortable API field -> SQL column. */
  sortColumns: Record<string, string>;
  toItem: (row: Row) => unknown;
}

/** Parses page/size/search/sort/sort_dir; 500.130 naming the bad parameter. */
export function parseListQuery(query: URLSearchParams, sortFields: readonly [string, ...string[]]): ListQuery {
  const raw: Record<string, string> = {};
  for (const key of ["page", "size", "search", "sort", "sort_dir"]) {
    const value = query.get(key);
    if (value !== null) raw[key] = value;
  }
  const parsed = listQuerySchema(sortFields).safeParse(raw);
  if (!parsed.success) throw apiError("invalidQuery", String(parsed.error.issues[0]?.path[0] ?? "query"));
  const q = parsed.data;
  return {
    page: q.page ?? 0,
    size: q.size ?? 50,
    // Control characters never occur in names or descriptions (the search key separates them with \u0001).
    // eslint-disable-next-line no-control-regex
    search: (q.search ?? "").replace(/[\u0000-\u001f]/g, "").trim().toLowerCase(),
    sort: q.sort ?? "name",
    sortDir: q.sort_dir ?? "asc",
  };
}

/** What `search` matches: the searchable texts of a record, lowercased (Unicode-aware) and kept apart. */
export const searchKey = (...parts: string[]) => parts.join("\u0001").toLowerCase();

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type Stmt = Statement<unknown[]>;
const cache = new WeakMap<Db, Map<string, Stmt>>();

function statement(db: Db, key: string, text: string): Stmt {
  let byKey = cache.get(db);
  if (!byKey) cache.set(db, (byKey = new Map<string, Stmt>()));
  let stmt = byKey.get(key);
  if (!stmt) byKey.set(key, (stmt = db.$client.prepare(text)));
  return stmt;
}

export function listPage<Row>(db: Db, spec: ListSpec<Row>, domainId: number, q: ListQuery): ListEnvelope<unknown> {
  const column = spec.sortColumns[q.sort] ?? "name";
  const dir = q.sortDir === "desc" ? "DESC" : "ASC";
  const filter = q.search ? "domain_id = ? AND search_key LIKE ? ESCAPE '\\'" : "domain_id = ?";
  const args: unknown[] = q.search ? [domainId, `%${escapeLike(q.search)}%`] : [domainId];
  const shape = `${spec.table}:${column}:${dir}:${q.search ? 1 : 0}`;
  const total = (
    statement(db, `count:${shape}`, `SELECT count(*) AS n FROM ${spec.table} WHERE ${filter}`).get(...args) as {
      n: number;
    }
  ).n;
  const rows = statement(
    db,
    `page:${shape}`,
    `SELECT ${spec.columns} FROM ${spec.table} WHERE ${filter}
     ORDER BY ${column} ${dir}${column === "name" ? "" : `, name ${dir}`} LIMIT ? OFFSET ?`,
  ).all(...args, q.size, q.page * q.size) as Row[];
  const data: Record<string, unknown> = {};
  for (const row of rows) data[(row as { name: string }).name] = spec.toItem(row);
  return { result_info: { total, fetched: rows.length, page_size: q.size, page: q.page }, result_data: data };
}
