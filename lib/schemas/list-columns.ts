// A list's summary item (GET emails|aliases|mailinglists/<domain>), field by field in the specification's order: the
// SQL column each is read from and sorted by, and how its value is written. Free of zod, so that client code can
// import the sortable fields; lib/schemas/fields.ts derives the item's zod schema, lib/server/resources the page.

/** How an item field is written: text as stored; numbers as digit strings ("flag": "0" or "1"; "percent": "42%"). */
export type ItemKind = "text" | "digits" | "flag" | "percent";

export interface ListColumn {
  /** The column the value is read from; null for the domain's name. */
  column: string | null;
  /**
   * The column the field sorts by, when not its own (the domain sorts by name: a list is one domain's). The address
   * sorts by its own column: "jan1@…" and "jan.k@…" come before "jan@…" ("1" and "." before "@"), not after it as
   * their names do.
   */
  sort?: string;
  kind?: ItemKind;
}
export type ListColumns = Readonly<Record<string, ListColumn>>;

const LEADING = ["name", "email", "domain"];

/** The sortable fields: every field of the item (contract §6), name, email and domain first. */
export function sortFieldsOf<C extends ListColumns>(columns: C): readonly [keyof C & string, ...(keyof C & string)[]] {
  const keys = Object.keys(columns);
  return [...LEADING.filter((f) => keys.includes(f)), ...keys.filter((f) => !LEADING.includes(f))] as never;
}

/** The column a field sorts by. */
export const sortColumnOf = (c: ListColumn) => c.sort ?? c.column ?? "name";

/** Whether a field sorts as a number (PostgreSQL sorts text with COLLATE "C", numbers without). */
export const sortsAsNumber = (c: ListColumn) => (c.kind ?? "text") !== "text";

export const ACCOUNT_LIST_COLUMNS = {
  email: { column: "email" },
  creation_date: { column: "creation_date" },
  expiration_date: { column: "expiration_date" },
  last_auth_date: { column: "last_auth_date" },
  capacity: { column: "capacity", kind: "digits" },
  description: { column: "description" },
  blocked: { column: "blocked", kind: "flag" },
  name: { column: "name" },
  domain: { column: null, sort: "name" },
  usage: { column: "usage_percent", kind: "percent" },
  usage_bytes: { column: "usage_bytes", kind: "digits" },
} as const satisfies ListColumns;

/** The alias list's item is the alias record. */
export const ALIAS_LIST_COLUMNS = {
  name: { column: "name" },
  domain: { column: null, sort: "name" },
  email: { column: "email" },
  target: { column: "target" },
} as const satisfies ListColumns;

export const MAILING_LIST_LIST_COLUMNS = {
  email: { column: "email" },
  description: { column: "description" },
  privacy_mode: { column: "privacy_mode", kind: "digits" },
  replyto_mode: { column: "replyto_mode", kind: "digits" },
  autosubscribe_enabled: { column: "autosubscribe_enabled", kind: "digits" },
  name: { column: "name" },
  domain: { column: null, sort: "name" },
} as const satisfies ListColumns;

/** The SQL columns that sort as numbers, over every list (db/pg/dialect.ts orders them without a collation). */
export const NUMERIC_SORT_COLUMNS: ReadonlySet<string> = new Set(
  [ACCOUNT_LIST_COLUMNS, ALIAS_LIST_COLUMNS, MAILING_LIST_LIST_COLUMNS].flatMap((columns) =>
    Object.values(columns as ListColumns)
      .filter(sortsAsNumber)
      .map(sortColumnOf),
  ),
);

export const ACCOUNT_SORT_FIELDS = sortFieldsOf(ACCOUNT_LIST_COLUMNS);
export const ALIAS_SORT_FIELDS = sortFieldsOf(ALIAS_LIST_COLUMNS);
export const LIST_SORT_FIELDS = sortFieldsOf(MAILING_LIST_LIST_COLUMNS);
