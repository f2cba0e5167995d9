// The two schemas must stay in step (db/pg/schema.ts): the same exports, tables, column keys and names, value
// kinds, nullability, indexes and foreign keys. A column added to one and not the other fails here.
import { getTableColumns, getTableName, is, type Column } from "drizzle-orm";
import { getTableConfig as pgConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as sqliteSchema from "../sqlite/schema";
import * as pgSchema from "./schema";

const tables = <T>(mod: Record<string, unknown>, cls: new (...a: never[]) => T) =>
  Object.fromEntries(Object.entries(mod).filter(([, v]) => is(v, cls as never))) as Record<string, T>;

const sqliteTables = tables(sqliteSchema, SQLiteTable);
const pgTables = tables(pgSchema, PgTable);

/** What a service sees: JS kind of the value, nullability. bytea (custom) is a Buffer like SQLite's blob. */
function columns(t: SQLiteTable | PgTable) {
  return Object.fromEntries(
    Object.entries(getTableColumns(t) as Record<string, Column>).map(([key, c]) => [
      key,
      {
        name: c.name,
        kind: c.dataType === "custom" ? "buffer" : c.dataType,
        notNull: c.notNull,
        primary: c.primary,
        enum: c.enumValues ?? null,
      },
    ]),
  );
}

describe("db/pg/schema.ts mirrors db/schema.ts", () => {
  it("exports the same tables under the same names", () => {
    expect(Object.keys(sqliteTables).length).toBeGreaterThanOrEqual(20);
    expect(Object.keys(pgTables).sort()).toEqual(Object.keys(sqliteTables).sort());
    for (const [key, t] of Object.entries(sqliteTables))
      expect(getTableName(pgTables[key]!), key).toBe(getTableName(t));
  });

  it.each(Object.keys(sqliteTables))("%s: the same columns (keys, names, kinds, nullability)", (key) => {
    expect(columns(pgTables[key]!)).toEqual(columns(sqliteTables[key]!));
  });

  it.each(Object.keys(sqliteTables))("%s: the same indexes, keys and foreign keys", (key) => {
    const s = sqliteConfig(sqliteTables[key]!);
    const p = pgConfig(pgTables[key]!);
    const idx = (list: { config: { name?: string; unique?: boolean; columns: unknown[] } }[]) =>
      list
        .map((i) => ({
          name: i.config.name,
          unique: !!i.config.unique,
          columns: i.config.columns.map((c) => (c as { name: string }).name),
        }))
        .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    // PostgreSQL keeps these sort indexes on accounts_order, not on the accounts.
    const movedOnPg = new Set([
      "accounts_sort_creation",
      "accounts_sort_expiration",
      "accounts_sort_last_auth",
      "accounts_sort_capacity",
      "accounts_sort_description",
      "accounts_sort_blocked",
    ]);
    const sqliteIndexes = (s.indexes as { config: { name?: string } }[]).filter(
      (i) => key !== "accounts" || !movedOnPg.has(String(i.config.name)),
    );
    expect(idx(p.indexes as never)).toEqual(idx(sqliteIndexes as never));
    const pks = (list: { columns: { name: string }[] }[]) => list.map((k) => k.columns.map((c) => c.name));
    expect(pks(p.primaryKeys)).toEqual(pks(s.primaryKeys));
    const fks = (
      list: {
        reference: () => { columns: { name: string }[]; foreignColumns: { name: string }[]; foreignTable: unknown };
        onDelete?: string;
      }[],
    ) =>
      list
        .map((f) => {
          const r = f.reference();
          return {
            columns: r.columns.map((c) => c.name),
            table: getTableName(r.foreignTable as never),
            foreign: r.foreignColumns.map((c) => c.name),
            onDelete: f.onDelete ?? "no action",
          };
        })
        .sort((a, b) => a.columns.join().localeCompare(b.columns.join()));
    expect(fks(p.foreignKeys as never)).toEqual(fks(s.foreignKeys as never));
    const uniques = (cols: Record<string, { isUnique: boolean }>) =>
      Object.entries(cols)
        .filter(([, c]) => c.isUnique)
        .map(([k]) => k);
    expect(uniques(getTableColumns(pgTables[key]!) as never)).toEqual(
      uniques(getTableColumns(sqliteTables[key]!) as never),
    );
  });
});

// drizzle's migrator applies the migrations whose journal time is later than the last one applied: a journal whose
// times do not rise with the order would skip a new migration on an existing database, or replay old ones.
describe.each(["sqlite", "pg"])("db/%s/migrations/meta/_journal.json", (dialect) => {
  it("lists one SQL file per entry, with times rising in order", () => {
    const folder = path.join(__dirname, "..", dialect, "migrations");
    const { entries } = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
      entries: { idx: number; when: number; tag: string }[];
    };
    for (const [i, e] of entries.entries()) {
      expect(fs.existsSync(path.join(folder, `${e.tag}.sql`)), e.tag).toBe(true);
      if (i > 0) expect(e.when, e.tag).toBeGreaterThan(entries[i - 1]!.when);
    }
    expect(fs.readdirSync(folder).filter((f) => f.endsWith(".sql")).length).toBe(entries.length);
  });
});
