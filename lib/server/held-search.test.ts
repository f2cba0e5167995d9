// The held substring tables follow every write, also one they could not apply one by one: an account moved to
// another domain, more changes than the table takes before it is rebuilt, and log entries pruned before this
// process read them (it must rebuild, not answer from a stale table). Inside a transaction nothing is held.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { HELD_ROW_COLUMNS, heldBuildsDone, heldEverything, heldSearch, heldTables, holdDomainsFrom, type HeldRow } from "./held-search";
import { searchKey } from "./list-page";

vi.mock("server-only", () => ({}));

let dir: string;
let db: Db;
let other: Db;
const domains: number[] = [];

/** Adds an account as POST does: its email is its name at its domain. */
function add(to: Db, domainId: number, name: string, description: string) {
  const domain = to.$client.prepare(`SELECT name FROM domains WHERE id = ?`).pluck().get(domainId) as string;
  to.$client
    .prepare(`INSERT INTO accounts (domain_id, name, email, description, search_key, password_hash) VALUES (?, ?, ?, ?, ?, 'x')`)
    .run(domainId, name, `${name}@${domain}`, description, searchKey(name, description));
}

/** The held matches of a search, or of the unfiltered list where `text` is "". */
const held = (domainId: number, text: string) =>
  text === "" ? heldEverything(db, domainId, 1_000_000) : heldSearch(db, domainId, 1_000_000, text);

/** What the held table answers against the definition, for the domain and the search ("": every account). */
function expectAgrees(domainId: number, text: string) {
  const want = (
    db.$client.prepare(`SELECT id, search_key AS k FROM accounts WHERE domain_id = ? ORDER BY id`).all(domainId) as { id: number; k: string }[]
  ).filter((r) => r.k.includes(text)).map((r) => r.id);
  const matches = held(domainId, text)!;
  expect(matches.count()).toBe(want.length);
  expect(matches.ids()).toEqual(want);
  for (const id of want) expect(matches.has(id)).toBe(true);
}

/**
 * The held pages (the first, and one further on) against SQLite's own ORDER BY, for every held column and both
 * directions: their ids, and their rows as the database has them (or none, where `rows` is false: an email that
 * is not name@domain). `text` "": the unfiltered list.
 */
function expectPages(domainId: number, text: string, rows = true) {
  for (const column of ["name", "description", "capacity", "last_auth_date", "usage_percent", "blocked"]) {
    for (const dir of ["ASC", "DESC"]) {
      for (const offset of [0, 17]) {
        const want = db.$client
          .prepare(
            `SELECT id, ${HELD_ROW_COLUMNS.join(", ")} FROM accounts WHERE domain_id = ? AND instr(search_key, ?) > 0
             ORDER BY ${column} ${dir}, name ${dir} LIMIT 12 OFFSET ?`,
          )
          .all(domainId, text, offset) as ({ id: number } & HeldRow)[];
        const page = held(domainId, text)!.page(column, dir === "DESC", offset, 12)!;
        expect(page.ids).toEqual(want.map((r) => r.id));
        expect(page.rows).toEqual(rows ? want.map(({ id: _, ...row }) => row) : null);
      }
    }
  }
}

beforeAll(() => {
  holdDomainsFrom(1, { inline: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "held-search-"));
  db = openDatabase(path.join(dir, "held.db"));
  other = openDatabase(path.join(dir, "held.db"));
  for (const name of ["a.pl", "b.pl"]) {
    domains.push(Number(db.$client.prepare(`INSERT INTO domains (name) VALUES (?)`).run(name).lastInsertRowid));
  }
  for (let n = 0; n < 200; n++) add(db, domains[n % 2]!, `user${n}`, n % 3 === 0 ? "Kowalska" : "Nowak");
});

afterAll(() => {
  holdDomainsFrom(2_000);
  db.$client.close();
  other.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("heldSearch", () => {
  it("follows another connection's inserts, changes, deletes and moves between domains", () => {
    const [a, b] = domains as [number, number];
    expectAgrees(a, "kowal");
    expectAgrees(b, "kowal");
    expectPages(a, "");
    add(other, a, "nowy.kowal", "");
    other.$client.prepare(`UPDATE accounts SET search_key = ? WHERE name = 'user0'`).run(searchKey("user0", "inna"));
    other.$client.prepare(`DELETE FROM accounts WHERE name = 'user3'`).run();
    other.$client.prepare(`UPDATE accounts SET domain_id = ? WHERE name = 'user6'`).run(b);
    for (const text of ["kowal", "inna", "user6", "nowak", ""]) {
      expectAgrees(a, text);
      expectAgrees(b, text);
    }
    expectPages(a, "");
    // user6 moved in with its email at a.pl: b's pages read their rows.
    expectPages(b, "", false);
  });

  it("rebuilds after more changes than it applies one by one, and after missing pruned log entries", () => {
    const [a] = domains as [number];
    expectAgrees(a, "kowal");
    const rename = other.$client.prepare(`UPDATE accounts SET search_key = ? WHERE name = ?`);
    for (let n = 0; n < 200; n += 2) rename.run(searchKey(`user${n}`, "Kowalczyk"), `user${n}`);
    expectAgrees(a, "kowal");
    expectAgrees(a, "czyk");
    // Entries this process has not read yet are pruned away (as after 100,000 newer ones).
    rename.run(searchKey("user2", "Zielinska"), "user2");
    other.$client.prepare(`DELETE FROM account_search_changes`).run();
    rename.run(searchKey("user4", "Zielinska"), "user4");
    expectAgrees(a, "zielin");
    expectAgrees(a, "czyk");
  });

  it("orders pages by the current sort values after another connection changes them", () => {
    const [a] = domains as [number];
    expectPages(a, "user");
    const update = other.$client.prepare(
      `UPDATE accounts SET capacity = ?, last_auth_date = ?, usage_bytes = ?, blocked = ? WHERE name = ?`,
    );
    for (let n = 0; n < 60; n += 4) update.run(5000 - n, `2026-01-${String(n % 28 + 1).padStart(2, "0")}`, n * 1048576, n % 2, `user${n}`);
    // A description whose search key stays the same (only its case changes).
    other.$client.prepare(`UPDATE accounts SET description = 'KOWALSKA' WHERE name = 'user10'`).run();
    expectPages(a, "user");
    expectPages(a, "kowal");
    expectPages(a, "");
  });

  it("builds in slices between other work, and takes the writes made meanwhile", async () => {
    const [, b] = domains as [number, number];
    const c = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES ('c.pl')`).run().lastInsertRowid);
    for (let n = 0; n < 300; n++) add(db, c, `c.user${n}`, n % 4 === 0 ? "Kowalska" : "Nowak");
    // One step a slice, eight ids a read: the build takes many turns of the event loop.
    holdDomainsFrom(1, { sliceMs: 0, idsARead: 8 });
    expect(heldSearch(db, c, 1_000_000, "kowal")).toBeNull();
    const rename = other.$client.prepare(`UPDATE accounts SET search_key = ?, capacity = ? WHERE name = ?`);
    let turns = 0;
    let writes = 0;
    for (; heldSearch(db, c, 1_000_000, "kowal") === null; turns++) {
      // A write every few turns (more than 1/16 of the keys changed during a build would drop it): renames of rows
      // the build has read and of rows it has not read yet, an insert, a move to another domain.
      if (turns % 6 === 0) {
        const n = writes++;
        if (n % 4 === 0) rename.run(searchKey(`c.user${n}`, `Zmiana${n}`), 900 + n, `c.user${n}`);
        if (n % 4 === 1) rename.run(searchKey(`c.user${299 - n}`, "Kowalczyk"), 2 * n, `c.user${299 - n}`);
        if (n % 4 === 2) add(other, c, `c.new${n}`, "Kowalewska");
        if (n % 4 === 3) other.$client.prepare(`UPDATE accounts SET domain_id = ? WHERE name = ?`).run(b, `c.user${n}`);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    await heldBuildsDone(db);
    expect(writes).toBeGreaterThan(4);
    holdDomainsFrom(1, { inline: true });
    for (const text of ["kowal", "zmiana", "zmiana4", "nowak", "user", ""]) expectAgrees(c, text);
    expectPages(c, "kowal");
    expectPages(c, "user");
    expectPages(c, "");
  });

  it("pauses a build while this connection has a transaction open by hand", async () => {
    const d = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES ('d.pl')`).run().lastInsertRowid);
    for (let n = 0; n < 40; n++) add(db, d, `d.user${n}`, "Kowalska");
    holdDomainsFrom(1, { sliceMs: 0, idsARead: 8 });
    expect(heldSearch(db, d, 1_000_000, "kowal")).toBeNull();
    db.$client.exec("BEGIN");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heldTables(db).building).toBe(1);
    db.$client.exec("COMMIT");
    await heldBuildsDone(db);
    expect(heldTables(db).building).toBe(0);
    holdDomainsFrom(1, { inline: true });
    expectAgrees(d, "kowal");
  });

  it("builds a page's rows from the held values only while every email is name@domain", () => {
    const d = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES ('e.pl')`).run().lastInsertRowid);
    for (let n = 0; n < 30; n++) add(db, d, `e.user${n}`, "Kowalska");
    expectPages(d, "user");
    // Another process writes an email that is not name@domain (POST never does): the page reads its rows again.
    other.$client.prepare(`UPDATE accounts SET email = 'someone@elsewhere.pl' WHERE name = 'e.user7'`).run();
    expectPages(d, "user", false);
    expectPages(d, "", false);
    // The same from the build on.
    const f = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES ('f.pl')`).run().lastInsertRowid);
    for (let n = 0; n < 30; n++) add(db, f, `f.user${n}`, "Kowalska");
    db.$client.prepare(`UPDATE accounts SET email = 'f.user3@f.com.pl' WHERE name = 'f.user3'`).run();
    expectPages(f, "user", false);
  });

  it("leaves the unfiltered list to the sort index while many accounts have changed since the build", () => {
    const g = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES ('g.pl')`).run().lastInsertRowid);
    db.$client.transaction(() => {
      for (let n = 0; n < 4_200; n++) add(db, g, `g.user${n}`, "Nowak");
    })();
    expect(heldEverything(db, g, 1_000_000)).not.toBeNull();
    const rename = other.$client.prepare(`UPDATE accounts SET search_key = ? WHERE name = ?`);
    for (let n = 0; n < 256; n++) rename.run(searchKey(`g.user${n}`, "Kowalska"), `g.user${n}`);
    expectPages(g, "");
    rename.run(searchKey("g.user256", "Kowalska"), "g.user256");
    expect(heldEverything(db, g, 1_000_000)).toBeNull();
    expectAgrees(g, "kowal"); // searches stay with the held table
  });

  it("holds nothing inside a transaction, and small domains stay with the trigram index", () => {
    const [a] = domains as [number];
    db.$client.transaction(() => expect(heldSearch(db, a, 1_000_000, "kowal")).toBeNull())();
    holdDomainsFrom(1_000, { inline: true });
    expect(heldSearch(db, a, 999, "kowal")).toBeNull();
    holdDomainsFrom(1, { inline: true });
  });
});
