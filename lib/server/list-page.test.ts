// listPage answers exactly what the plain definition says (contract §6: case-insensitive substring search over
// the search key, sort with name as tie-break, page of size): whichever way it reads the page (trigram index,
// sort-index walk, narrow-index scan) and with totals remembered between writes. Every test runs twice: with the
// matches found in the trigram index, and in the substring table held for the domain (held-search.ts).
import fc from "fast-check";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { optimizeSearchIndex } from "./search-index";
import { sortIndex } from "./list-cache";
import { cheapestPlan, listPage, searchKey, type ListPlan, type ListSpec } from "./list-page";
import { hasId, walkMatchIds } from "./match-walk";
import { holdDomainsFrom } from "./held-search";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

interface Row {
  name: string;
  capacity: number;
  description: string;
  search_key: string;
  email: string;
}

const spec: ListSpec<Row> = {
  table: "accounts",
  columns: "name, capacity, description, search_key, email",
  // email is no held sort column (held-order.ts): a held domain's page by it comes from the other plans.
  sortColumns: { name: "name", capacity: "capacity", description: "description", email: "email" },
  toItem: (r) => r,
};

const WORDS = ["Anna", "ann", "😀kot", "\uFFFDkot", "Łódź", "łódka", "ŻÓŁW", "kowal", "Kowalska", "50%", "a_b", 'q"x', "zz", "ß", "İstanbul", "x"];
let dir: string;
let db: Db;
let domainIds: number[] = [];

/** SQLite's order: numbers numerically, text by BINARY collation (its UTF-8 bytes, so code point order). */
const sqlCompare = (x: string | number, y: string | number) =>
  typeof x === "number" && typeof y === "number" ? x - y : Buffer.compare(Buffer.from(String(x)), Buffer.from(String(y)));

/** The definition: every row of the domain whose search key contains the lowercased search, sorted, sliced. */
function expected(domainId: number, search: string, column: string, desc: boolean, page: number, size: number) {
  const rows = db.$client
    .prepare(`SELECT name, capacity, description, search_key, email FROM accounts WHERE domain_id = ?`)
    .all(domainId) as Row[];
  const hits = rows.filter((r) => r.search_key.includes(search));
  const key = (r: Row) => r[column as keyof Row];
  hits.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const c = sqlCompare(x, y) || sqlCompare(a.name, b.name);
    return desc ? -c : c;
  });
  return { total: hits.length, names: hits.slice(page * size, page * size + size).map((r) => r.name) };
}

function insertAccount(domainId: number, name: string, description: string, capacity: number) {
  db.$client
    .prepare(
      `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, password_hash)
       VALUES (?, ?, ?, ?, ?, ?, 'x')`,
    )
    .run(domainId, name, `${name}@d${domainId}.pl`, description, searchKey(name, description), capacity);
}

function createDatabase() {
  domainIds = [];
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "list-page-"));
  db = openDatabase(path.join(dir, "list.db"));
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (const [i, count] of [300, 40].entries()) {
    const id = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES (?)`).run(`d${i}.pl`).lastInsertRowid);
    domainIds.push(id);
    for (let n = 0; n < count; n++) {
      const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => WORDS[Math.floor(random() * WORDS.length)]);
      insertAccount(id, `u${n}.${i}`, words.join(" "), [512, 1024, 2048][n % 3]!);
    }
  }
}

const check = (domainId: number, search: string, column: string, desc: boolean, page: number, size: number, plan?: ListPlan) => {
  const got = listPage(db, spec, domainId, { search, sort: column, sortDir: desc ? "desc" : "asc", page, size }, plan);
  const want = expected(domainId, search, column, desc, page, size);
  expect(got.result_info.total).toBe(want.total);
  expect(Object.keys(got.result_data)).toEqual(want.names);
};

describe.each([
  { matchesFrom: "the trigram index", holdFrom: Infinity },
  { matchesFrom: "a held substring table", holdFrom: 1 },
])("listPage, matches from $matchesFrom", ({ holdFrom }) => {
  beforeAll(() => {
    holdDomainsFrom(holdFrom, { inline: true });
    createDatabase();
  });
  afterAll(() => {
    holdDomainsFrom(2_000);
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("matches the definition for any search, sort, direction and page, by the chosen plan or any forced one", () => {
    const searches = [...WORDS.map((w) => w.toLowerCase()), "", "a", "ł", "an", "ód", "owal", "nna", "%", "_", '"', "a b", "xyz"];
    fc.assert(
      fc.property(
        fc.constantFrom<ListPlan | undefined>(undefined, "walk", "walkMatchSet", "sortMatches", "heldPage"),
        fc.constantFrom(...domainIds),
        fc.oneof(fc.constantFrom(...searches), fc.string({ minLength: 1, maxLength: 4 })),
        fc.constantFrom("name", "capacity", "description", "email"),
        fc.boolean(),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 60 }),
        (plan, domainId, search, column, desc, page, size) => check(domainId, search.toLowerCase(), column, desc, page, size, plan),
      ),
      { numRuns: 1000 },
    );
  });

  it("picks the plan its cost model expects to be cheapest", () => {
    const rowWalk = { matchSet: true, covering: false };
    // 100,000 rows, matches found in 0.5 ms: half of them match -> walk 100 rows; 50 match -> read the 50;
    // 3,000 match -> walk the index against the match set (without one, 2,000 matches: read them).
    expect(cheapestPlan(50, 100_000, 50_000, 500, rowWalk)).toBe("walk");
    expect(cheapestPlan(50, 100_000, 50, 500, rowWalk)).toBe("sortMatches");
    expect(cheapestPlan(50, 100_000, 3_000, 500, rowWalk)).toBe("walkMatchSet");
    expect(cheapestPlan(50, 100_000, 2_000, 500, { matchSet: false, covering: false })).toBe("sortMatches");
    // The same 3,000 matches behind trigrams that took 10 ms to read: walking 1,667 rows is cheaper.
    expect(cheapestPlan(50, 100_000, 3_000, 10_000, rowWalk)).toBe("walk");
    // A covering sort index tests the search on its entries: walking 1,667 of them beats finding 3,000 matches.
    expect(cheapestPlan(50, 100_000, 3_000, 500, { matchSet: true, covering: true })).toBe("walk");
    // ... but not 100,000 of them for 50 matches whose ids are already at hand.
    expect(cheapestPlan(50, 100_000, 50, 5, { matchSet: true, covering: true })).toBe("sortMatches");
    // Held matches: the page is found in memory, however many match.
    const held = { matchSet: true, covering: true, held: true };
    for (const total of [12, 3_000, 82_000]) expect(cheapestPlan(50, 100_000, total, 1, held)).toBe("heldPage");
  });

  it("walks a search in name order on the covering index, and a plain page on the narrowest", () => {
    expect(sortIndex(db, "accounts", "name", true)).toEqual({ name: "accounts_domain_name_search", covering: true });
    expect(sortIndex(db, "accounts", "name", false)).toEqual({ name: "accounts_domain_name", covering: false });
    expect(sortIndex(db, "accounts", "capacity", true)).toEqual({ name: "accounts_sort_capacity", covering: false });
    expect(sortIndex(db, "aliases", "name", true)?.covering).toBe(false);
  });

  it("pages a new search from the match ids it counted, by every plan", () => {
    const [big, small] = domainIds;
    const touch = () => db.$client.prepare(`UPDATE domains SET name = name WHERE id = ?`).run(big);
    for (const plan of [undefined, "walk", "walkMatchSet", "sortMatches", "heldPage"] as const) {
      for (const [domainId, search, column, desc, page] of [
        [big!, "kowal", "capacity", false, 0],
        [big!, "ann", "name", true, 2],
        [big!, "łódka", "description", false, 1],
        [small!, "owal", "capacity", true, 0],
        [big!, "nie ma", "name", false, 0],
        // U+FFFD sorts before an emoji in SQLite's order (code points), after it in UTF-16's.
        [big!, "kot", "description", false, 0],
      ] as const) {
        touch(); // forgets the remembered totals, so the search is new again
        check(domainId, search, column, desc, page, 7, plan);
      }
    }
  });

  it("walks on past batches that hold too few hits (matches bunched at one end of the sort order)", () => {
    const id = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES ('bunched.pl')`).run().lastInsertRowid);
    // 400 accounts; the 20 with the largest capacity match. The walk expects a hit every 20 entries, so in
    // ascending order its first batches (64, then 128 entries) find none and it reads on.
    for (let n = 0; n < 400; n++) insertAccount(id, `b${n}`, n >= 380 ? "zzkoniec" : "zwykle", 1000 + n);
    for (const plan of [undefined, "walkMatchSet"] as const) {
      for (const desc of [false, true]) for (const page of [0, 1, 3, 4]) check(id, "zzkoniec", "capacity", desc, page, 5, plan);
      check(id, "zzkoniec", "name", false, 0, 50, plan);
    }
    // Batches of any size, hits on their first and last entries included (every other account matches too): each
    // hit is found once, in order.
    const rows = db.$client.prepare(`SELECT id, capacity FROM accounts WHERE domain_id = ? ORDER BY capacity`).all(id) as {
      id: number;
      capacity: number;
    }[];
    const matching = rows.filter((r) => r.capacity >= 1380 || r.capacity % 2 === 0).map((r) => r.id);
    const ascending = [...matching].sort((a, b) => a - b);
    const order = (dir: string) => `ORDER BY capacity ${dir}, name ${dir}`;
    const walk = {
      table: "accounts",
      index: "accounts_sort_capacity",
      column: "capacity",
      dir: "ASC",
      order: order("ASC"),
      domainId: id,
    } as const;
    for (const expectedEntries of [1, 2, 63, 64, 65, 100, 1000]) {
      for (const needed of [1, 22, 64, matching.length, matching.length + 5]) {
        expect(walkMatchIds(db, walk, (id) => hasId(ascending, id), needed, expectedEntries)).toEqual(matching.slice(0, needed));
      }
    }
    expect(walkMatchIds(db, { ...walk, dir: "DESC", order: order("DESC") }, (id) => hasId(ascending, id), 30, 1)).toEqual([...matching].reverse().slice(0, 30));
  });

  it("stays correct after writes (the search index and the remembered totals follow them)", () => {
    const [big] = domainIds;
    check(big!, "kowal", "name", false, 0, 50);
    insertAccount(big!, "nowy.kowal", "Nowy", 512);
    check(big!, "kowal", "name", false, 0, 50);
    db.$client.prepare(`UPDATE accounts SET description = 'inny', search_key = ? WHERE name = 'nowy.kowal'`).run(
      searchKey("nowy.kowal", "inny"),
    );
    check(big!, "inny", "capacity", true, 0, 50);
    check(big!, "kowal", "name", false, 0, 50);
    db.$client.prepare(`DELETE FROM accounts WHERE name = 'nowy.kowal'`).run();
    check(big!, "kowal", "name", false, 0, 50);
    check(big!, "inny", "name", false, 0, 50);
  });

  it("answers the same after the search index is merged (db optimize) and written again", () => {
    const [big] = domainIds;
    optimizeSearchIndex(db);
    for (const search of ["kowal", "ann", "owal", "łódka"]) check(big!, search, "name", false, 0, 50, "sortMatches");
    insertAccount(big!, "po.scaleniu", "Kowalska", 1024);
    check(big!, "kowal", "capacity", false, 0, 50, "walkMatchSet");
    db.$client.prepare(`DELETE FROM accounts WHERE name = 'po.scaleniu'`).run();
    check(big!, "kowal", "capacity", false, 0, 50, "walkMatchSet");
  });

  it("pages on from a remembered deep page, and forgets it after a write", () => {
    const [big] = domainIds;
    for (const [column, desc] of [["capacity", true], ["name", false], ["description", false]] as const) {
      for (const page of [4, 6, 5, 9, 4]) check(big!, "", column, desc, page, 20);
      insertAccount(big!, "aaa.wstawione", "Wstawione", 4096);
      check(big!, "", column, desc, 5, 20);
      db.$client.prepare(`DELETE FROM accounts WHERE name = 'aaa.wstawione'`).run();
      check(big!, "", column, desc, 9, 20);
    }
  });

  it("sees a write made by another connection", () => {
    const [big] = domainIds;
    check(big!, "łódka", "name", false, 0, 10);
    const other = openDatabase(path.join(dir, "list.db"));
    other.$client.prepare(`DELETE FROM accounts WHERE domain_id = ? AND search_key LIKE '%łódka%'`).run(big);
    other.$client.close();
    check(big!, "łódka", "name", false, 0, 10);
  });
});
