// Deep pages without a search seek past remembered entries of their order (db/page-anchors.ts): every page equals
// plain OFFSET's, and stays equal after another connection changes a sort key, adds or deletes an account.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import type { PageSpec } from "@/db/dialect";
import { readPage } from "@/lib/server/resources/page";

vi.mock("server-only", () => ({}));

const SORTS = ["name", "capacity", "creation_date", "expiration_date", "description", "blocked"];
const spec: PageSpec<{ name: string }> = {
  table: "accounts",
  columns: "name",
  sortColumns: Object.fromEntries(SORTS.map((s) => [s, s])),
  toItem: (r) => r,
};

let dir: string;
let db: Db;
/** Another connection to the file, as another process or the CLI would write. */
let other: Database.Database;
let domainId: number;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "anchors-"));
  db = openDatabase(path.join(dir, "list.db"));
  other = new Database(path.join(dir, "list.db"));
  domainId = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES ('big.pl')`).run().lastInsertRowid);
  db.$client
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
       INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, blocked, creation_date,
                             expiration_date, password_hash)
       SELECT ?, 'u' || i, 'u' || i || '@big.pl', 'Opis ' || (i % 11), 'u' || i, 1 + i % 7, i % 5 = 0,
              date('2020-01-01', '+' || (i % 97) || ' days'),
              CASE WHEN i % 3 = 0 THEN '' ELSE date('2030-01-01', '+' || (i % 13) || ' days') END, 'x'
       FROM n`,
    )
    .run(domainId);
});

afterAll(() => {
  other.close();
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The deep `pages` of every anchored sort, both ways, in that order, against plain OFFSET. */
async function expectPagesAsOffset(pages: number[]) {
  for (const sort of SORTS)
    for (const dir of ["ASC", "DESC"] as const)
      for (const page of pages) {
        const got = await readPage(db, spec, domainId, {
          page,
          size: 50,
          search: "",
          sort,
          sortDir: dir === "DESC" ? "desc" : "asc",
        });
        const want = db.$client
          .prepare(
            `SELECT name FROM accounts WHERE domain_id = ? ORDER BY ${sort} ${dir}, name ${dir} LIMIT 50 OFFSET ?`,
          )
          .pluck()
          .all(domainId, page * 50);
        expect(Object.keys(got.result_data), `${sort} ${dir} page ${page}`).toEqual(want);
      }
}

describe("deep pages without a search", () => {
  it("are plain OFFSET's pages, read and read again", async () => {
    // Anchor 2 found from none, then anchor 1; then both known.
    await expectPagesAsOffset([40, 20, 59, 19, 21]);
    await expectPagesAsOffset([19, 20, 21, 40, 59]);
  });

  it("follow another connection's change of each sort key, a new account and a deleted one", async () => {
    // Each change moves accounts across the remembered entries (u1000-u1100 sit around the first anchors).
    const changes = [
      `UPDATE accounts SET capacity = 99 WHERE name BETWEEN 'u1000' AND 'u1100'`,
      `UPDATE accounts SET blocked = 1 - blocked WHERE name BETWEEN 'u1000' AND 'u1100'`,
      `UPDATE accounts SET creation_date = '2019-01-01' WHERE name BETWEEN 'u1000' AND 'u1100'`,
      `UPDATE accounts SET expiration_date = '' WHERE name BETWEEN 'u2000' AND 'u2100'`,
      `UPDATE accounts SET description = 'A', search_key = 'a' WHERE name BETWEEN 'u2000' AND 'u2100'`,
      // The letter case alone: the lowercased search key stays as it was.
      `UPDATE accounts SET description = lower(description) WHERE name BETWEEN 'u1000' AND 'u1900'`,
      `INSERT INTO accounts (domain_id, name, email, search_key, password_hash) VALUES (${domainId}, 'a0', 'a0@big.pl', 'a0', 'x')`,
      `DELETE FROM accounts WHERE name IN ('u1', 'u10', 'u100')`,
    ];
    for (const change of changes) {
      other.exec(change);
      await expectPagesAsOffset([20, 59, 40, 19, 21]); // anchor 2 found from anchor 1
    }
  });
});
