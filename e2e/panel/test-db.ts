// SQL on the panel tests' database, whichever engine the run uses: the SQLite file PANEL_E2E_DB, or, with
// TEST_DATABASE=postgres, the database DATABASE_URL names (the global setup sets both for the workers). Queries use
// `?` placeholders (numbered for PostgreSQL here). Only for writing rows the way a non-HTTP writer does (the list
// service) and reading what it wrote; everything else goes through the panel.
import Database from "better-sqlite3";
import pg from "pg";
import { onPostgres } from "../support/test-database";

/** Runs one statement; returns its rows (empty for a statement without RETURNING). */
export async function sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
  if (onPostgres()) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("TEST_DATABASE=postgres without DATABASE_URL (set by e2e/panel/global-setup.ts)");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      let n = 0;
      const res = await client.query(
        query.replace(/\?/g, () => `$${++n}`),
        params,
      );
      return res.rows as T[];
    } finally {
      await client.end();
    }
  }
  const file = process.env.PANEL_E2E_DB;
  if (!file) throw new Error("PANEL_E2E_DB is not set (playwright.config.ts sets it)");
  const db = new Database(file);
  db.pragma("busy_timeout = 5000");
  try {
    const stmt = db.prepare(query);
    if (stmt.reader) return stmt.all(...params) as T[];
    stmt.run(...params);
    return [];
  } finally {
    db.close();
  }
}
