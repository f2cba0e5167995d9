// The fuzz test's view of the database: a digest that changes exactly when a refused request would have written.
import type Database from "better-sqlite3";
import crypto from "node:crypto";

const IGNORED_COLUMNS = new Set(["last_auth_date", "last_auth_ip"]);
// Failed logins are counted there (lib/server/caller/login-throttle.ts): the one write a refusal is meant to make.
const THROTTLE_TABLE = "login_throttle";
/** A digest of every table but the throttle, read through `reader`, ignoring the last-login columns. */
export function digest(reader: Database.Database): string {
  const hash = crypto.createHash("sha256");
  const tables = reader
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  for (const table of tables.filter((t) => t !== THROTTLE_TABLE)) {
    hash.update(`\n#${table}\n`);
    // Sorted serialized rows: some tables have no rowid, and the order of rows is no part of the state.
    const rows = (reader.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]).map((row) =>
      Object.entries(row)
        .filter(([k]) => !IGNORED_COLUMNS.has(k))
        .map(([k, v]) => `${k}=${JSON.stringify(v instanceof Buffer ? v.toString("hex") : v)}`)
        .join(";"),
    );
    for (const row of rows.sort()) hash.update(`${row}\n`);
  }
  return hash.digest("hex");
}
