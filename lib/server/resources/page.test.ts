// readPage answers exactly what the plain definition says (contract §6: case-insensitive substring search over
// the search key, sort with name as tie-break, page of size): whichever way it reads the page (the matches sorted,
// or the sort index walked), with matches found in the trigram index or by LIKE, and with totals remembered
// between writes.
import fc from "fast-check";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { optimizeSearchIndex } from "./search-index";
import { readPage, planFor, searchKey, sortIndex, walkTestFor, type ForcedPlan, type PageSpec } from "./page";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

interface Row {
  name: string;
  capacity: number;
  description: string;
  search_key: string;
  email: string;
}

const spec: PageSpec<Row> = {
  table: "accounts",
  columns: "name, capacity, description, search_key, email",
  sortColumns: { name: "name", capacity: "capacity", description: "description", email: "email" },
  toItem: (r) => r,
};

const WORDS = [
  "Anna",
  "ann",
  "😀kot",
  "\uFFFDkot",
  "Łódź",
  "łódka",
  "ŻÓŁW",
  "kowal",
  "Kowalska",
  "50%",
  "a_b",
  'q"x',
  "zz",
  "ß",
  "İstanbul",
  "x",
];
let dir: string;
let db: Db;
let domainIds: number[] = [];

/** SQLite's order: numbers numerically, text by BINARY collation (its UTF-8 bytes, so code point order). */
const sqlCompare = (x: string | number, y: string | number) =>
  typeof x === "number" && typeof y === "number"
    ? x - y
    : Buffer.compare(Buffer.from(String(x)), Buffer.from(String(y)));

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
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "page-"));
  db = openDatabase(path.join(dir, "list.db"));
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (const [i, count] of [300, 40].entries()) {
    const id = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES (?)`).run(`d${i}.pl`).lastInsertRowid);
    domainIds.push(id);
    for (let n = 0; n < count; n++) {
      const words = Array.from(
        { length: 1 + Math.floor(random() * 3) },
        () => WORDS[Math.floor(random() * WORDS.length)],
      );
      insertAccount(id, `u${n}.${i}`, words.join(" "), [512, 1024, 2048][n % 3]!);
    }
  }
}

/** The chosen plan, and each plan and walk test forced. */
const PLANS: (ForcedPlan | undefined)[] = [
  undefined,
  { plan: "sortMatches" },
  { plan: "walkIndex", walkTest: "searchKey" },
  { plan: "walkIndex", walkTest: "matchIds" },
  // A search-key walk cut short at once, or after a few entries, reads the page the other way.
  { plan: "walkIndex", walkTest: "searchKey", walkBudget: 0 },
  { plan: "walkIndex", walkTest: "searchKey", walkBudget: 7 },
];

const check = async (
  domainId: number,
  search: string,
  column: string,
  desc: boolean,
  page: number,
  size: number,
  plan?: ForcedPlan,
) => {
  const got = await readPage(
    db,
    spec,
    domainId,
    { search, sort: column, sortDir: desc ? "desc" : "asc", page, size },
    plan,
  );
  const want = expected(domainId, search, column, desc, page, size);
  expect(got.result_info.total).toBe(want.total);
  expect(Object.keys(got.result_data)).toEqual(want.names);
};

describe("readPage", () => {
  beforeAll(() => {
    createDatabase();
  });
  afterAll(() => {
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("matches the definition for any search, sort, direction and page, by the chosen plan or any forced one", async () => {
    const searches = [
      ...WORDS.map((w) => w.toLowerCase()),
      "",
      "a",
      "ł",
      "an",
      "ód",
      "owal",
      "nna",
      "%",
      "_",
      '"',
      "a b",
      "xyz",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<ForcedPlan | undefined>(...PLANS),
        fc.constantFrom(...domainIds),
        fc.oneof(fc.constantFrom(...searches), fc.string({ minLength: 1, maxLength: 4 })),
        fc.constantFrom("name", "capacity", "description", "email"),
        fc.boolean(),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 60 }),
        (plan, domainId, search, column, desc, page, size) =>
          check(domainId, search.toLowerCase(), column, desc, page, size, plan),
      ),
      { numRuns: 1000 },
    );
  });

  it("reads few matches and sorts them, and walks the sort index for many", () => {
    // A page of 50 in 100,000 rows: a walk expects to pass 50 * 100,000 / matches entries, a match costs ten.
    expect(planFor(35, 50, 100_000)).toBe("sortMatches");
    expect(planFor(700, 50, 100_000)).toBe("sortMatches");
    expect(planFor(720, 50, 100_000)).toBe("walkIndex");
    expect(planFor(11_000, 50, 100_000)).toBe("walkIndex");
    // Deeper pages walk further, so reading the matches wins up to more of them.
    expect(planFor(7_000, 5_050, 100_000)).toBe("sortMatches");
  });

  it("tests search keys on a short walk and ids against the matches on a long one", () => {
    // 11,000 matches in 100,000 rows: the first page of 50 expects a walk of ~450 entries, page 100 of ~46,000.
    expect(walkTestFor(11_000, 50, 100_000)).toBe("searchKey");
    expect(walkTestFor(11_000, 5_050, 100_000)).toBe("matchIds");
    expect(walkTestFor(5_000, 50, 100_000)).toBe("searchKey");
    expect(walkTestFor(3_400, 50, 100_000)).toBe("matchIds");
  });

  it("walks a search in name order on the index holding the search key, other orders on their sort index", () => {
    expect(sortIndex(db, "accounts", "name")).toBe("accounts_domain_name");
    expect(sortIndex(db, "accounts", "capacity")).toBe("accounts_sort_capacity");
    expect(sortIndex(db, "accounts", "usage_bytes")).toBe("accounts_sort_usage_bytes");
    expect(sortIndex(db, "aliases", "target")).toBe("aliases_sort_target");
    expect(sortIndex(db, "accounts", "email")).toBe("accounts_sort_email");
    expect(sortIndex(db, "mailing_lists", "email")).toBe("mailing_lists_sort_email");
  });

  it("pages a new search, by either plan", async () => {
    const [big, small] = domainIds;
    const touch = () =>
      db.$client.prepare(`UPDATE domains SET search_version = search_version + 1 WHERE id = ?`).run(big);
    for (const plan of PLANS) {
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
        await check(domainId, search, column, desc, page, 7, plan);
      }
    }
  });

  it("walks past matches bunched at one end of the sort order", async () => {
    const id = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES ('bunched.pl')`).run().lastInsertRowid);
    // 400 accounts; the 20 with the largest capacity match.
    for (let n = 0; n < 400; n++) insertAccount(id, `b${n}`, n >= 380 ? "zzkoniec" : "zwykle", 1000 + n);
    for (const plan of PLANS) {
      for (const desc of [false, true])
        for (const page of [0, 1, 3, 4]) await check(id, "zzkoniec", "capacity", desc, page, 5, plan);
      await check(id, "zzkoniec", "name", false, 0, 50, plan);
    }
  });

  it("walks on, instead of reading every match's id, when its first walk found most of the page", async () => {
    const id = Number(db.$client.prepare(`INSERT INTO domains (name) VALUES ('sparse.pl')`).run().lastInsertRowid);
    // By capacity: one in ten of the first 200 accounts matches, one in four of the rest.
    for (let n = 0; n < 400; n++)
      insertAccount(id, `s${n}`, (n < 200 ? n % 10 === 0 : n % 4 === 0) ? "rzadki" : "zwykly", 1000 + n);
    // A handle of its own prepares every statement it runs, so the statements it prepared are the ones it ran.
    const own = openDatabase(path.join(dir, "list.db"));
    const prepared: string[] = [];
    const prepare = own.$client.prepare.bind(own.$client);
    vi.spyOn(own.$client, "prepare").mockImplementation((text: string) => {
      prepared.push(text);
      return prepare(text);
    });
    try {
      // A budget of 160 entries finds 16 of the page's 20 (a little sparser than the domain's average).
      const got = await readPage(
        own,
        spec,
        id,
        { search: "rzadki", sort: "capacity", sortDir: "asc", page: 0, size: 20 },
        { plan: "walkIndex", walkTest: "searchKey", walkBudget: 160 },
      );
      expect(Object.keys(got.result_data)).toEqual(expected(id, "rzadki", "capacity", false, 0, 20).names);
      expect(prepared.filter((text) => /\bid IN \(SELECT (rowid|value)\b/.test(text))).toEqual([]);
    } finally {
      own.$client.close();
    }
  });

  it("stays correct after writes (the search index and the remembered totals follow them)", async () => {
    const [big] = domainIds;
    await check(big!, "kowal", "name", false, 0, 50);
    insertAccount(big!, "nowy.kowal", "Nowy", 512);
    await check(big!, "kowal", "name", false, 0, 50);
    db.$client
      .prepare(`UPDATE accounts SET description = 'inny', search_key = ? WHERE name = 'nowy.kowal'`)
      .run(searchKey("nowy.kowal", "inny"));
    await check(big!, "inny", "capacity", true, 0, 50);
    await check(big!, "kowal", "name", false, 0, 50);
    db.$client.prepare(`DELETE FROM accounts WHERE name = 'nowy.kowal'`).run();
    await check(big!, "kowal", "name", false, 0, 50);
    await check(big!, "inny", "name", false, 0, 50);
  });

  it("answers the same after the search index is merged (db optimize) and written again", async () => {
    const [big] = domainIds;
    await optimizeSearchIndex(db);
    for (const search of ["kowal", "ann", "owal", "łódka"])
      await check(big!, search, "name", false, 0, 50, { plan: "sortMatches" });
    insertAccount(big!, "po.scaleniu", "Kowalska", 1024);
    for (const walkTest of ["searchKey", "matchIds"] as const)
      await check(big!, "kowal", "capacity", false, 0, 50, { plan: "walkIndex", walkTest });
    db.$client.prepare(`DELETE FROM accounts WHERE name = 'po.scaleniu'`).run();
    await check(big!, "kowal", "capacity", false, 0, 50, { plan: "sortMatches" });
  });

  it("pages deep into the whole list, also after a write", async () => {
    const [big] = domainIds;
    for (const [column, desc] of [
      ["capacity", true],
      ["name", false],
      ["description", false],
    ] as const) {
      for (const page of [4, 6, 5, 9, 4]) await check(big!, "", column, desc, page, 20);
      insertAccount(big!, "aaa.wstawione", "Wstawione", 4096);
      await check(big!, "", column, desc, 5, 20);
      db.$client.prepare(`DELETE FROM accounts WHERE name = 'aaa.wstawione'`).run();
      await check(big!, "", column, desc, 9, 20);
    }
  });

  it("moves the domain's search_version when rows, search keys or anchored sort keys change, not the mail server's", async () => {
    const [big] = domainIds;
    const version = () =>
      db.$client.prepare(`SELECT search_version FROM domains WHERE id = ?`).pluck().get(big) as number;
    const before = version();
    db.$client
      .prepare(`UPDATE accounts SET usage_bytes = usage_bytes + 1, last_auth_date = '2026-01-01' WHERE domain_id = ?`)
      .run(big);
    expect(version()).toBe(before);
    insertAccount(big!, "wersja", "Opis", 512);
    expect(version()).toBe(before + 1);
    db.$client
      .prepare(`UPDATE accounts SET description = 'inny', search_key = ? WHERE name = 'wersja'`)
      .run(searchKey("wersja", "inny"));
    expect(version()).toBe(before + 2);
    // The sort keys db/page-anchors.ts remembers entries of; writing the same value moves nothing.
    db.$client.prepare(`UPDATE accounts SET capacity = 513 WHERE name = 'wersja'`).run();
    db.$client.prepare(`UPDATE accounts SET capacity = 513, blocked = blocked WHERE name = 'wersja'`).run();
    db.$client.prepare(`UPDATE accounts SET blocked = 1, expiration_date = '2030-01-01' WHERE name = 'wersja'`).run();
    expect(version()).toBe(before + 4);
    // The description's letter case alone (the lowercased search key stays), and a capacity with a new search key:
    // each counted once.
    db.$client.prepare(`UPDATE accounts SET description = 'INNY' WHERE name = 'wersja'`).run();
    db.$client
      .prepare(`UPDATE accounts SET capacity = 514, description = 'x', search_key = ? WHERE name = 'wersja'`)
      .run(searchKey("wersja", "x"));
    expect(version()).toBe(before + 6);
    db.$client.prepare(`DELETE FROM accounts WHERE name = 'wersja'`).run();
    expect(version()).toBe(before + 7);
    await check(big!, "wersja", "name", false, 0, 10);
  });

  it("keeps the totals of two database files apart, though their domain ids and versions agree", async () => {
    const [big] = domainIds;
    await check(big!, "kowal", "name", false, 0, 10);
    const otherFile = openDatabase(path.join(dir, "other.db"));
    const version = db.$client.prepare(`SELECT search_version FROM domains WHERE id = ?`).pluck().get(big);
    otherFile.$client
      .prepare(`INSERT INTO domains (id, name, search_version) VALUES (?, 'inna.pl', ?)`)
      .run(big, version);
    const got = await readPage(otherFile, spec, big!, {
      search: "kowal",
      sort: "name",
      sortDir: "asc",
      page: 0,
      size: 10,
    });
    expect(got.result_info.total).toBe(0);
    otherFile.$client.close();
  });

  it("sees a write made by another connection", async () => {
    const [big] = domainIds;
    await check(big!, "łódka", "name", false, 0, 10);
    const other = openDatabase(path.join(dir, "list.db"));
    other.$client.prepare(`DELETE FROM accounts WHERE domain_id = ? AND search_key LIKE '%łódka%'`).run(big);
    other.$client.close();
    await check(big!, "łódka", "name", false, 0, 10);
  });
});
