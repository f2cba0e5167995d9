// A held page is SQLite's ORDER BY <column> <dir>, name <dir> over the matches, LIMIT size OFFSET offset: found by
// walking the column's order or by picking among the matches, for any rows, matches, changed rows and pages, and
// after values have changed in place (moved in an order sorted before), enough of them to have the order sorted
// again. Each entry carries the account's current values (a page's rows are built from them).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HELD_SORT_COLUMNS, HeldOrderBuilder, type HeldPageWay, type PageEntry, type SortRow } from "./held-order";

/** SQLite's order of two values: numbers numerically, text by its UTF-8 bytes (BINARY collation). */
function compareValues(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

function expectedPage(rows: SortRow[], ids: number[], column: number, desc: boolean, offset: number, size: number) {
  const sign = desc ? -1 : 1;
  const order = rows
    .map((row, i) => ({ row, id: ids[i]! }))
    .sort((x, y) => sign * (compareValues(x.row[column]!, y.row[column]!) || compareValues(x.row[0]!, y.row[0]!)));
  return order.slice(offset, offset + size).map(({ id, row }) => ({ id, row }));
}

const text = fc.constantFrom("", "a", "b", "ą", "Zoe", "\uFFFD", "😀", "ab");
const date = fc.constantFrom("", "2024-01-01", "2025-06-30", "2026-11-22");
const number = fc.constantFrom(0, 1, 2.5, 1024, -3);
const values = fc.tuple(text, date, date, date, number, number, number);
const row = (name: string, v: [string, string, string, string, number, number, number]): SortRow => [name, ...v];

const idsOf = (entries: PageEntry[]) => entries.map((e) => e.id);

/** `count` accounts u000, u001, ... (ids 1, 2, ...) whose capacity is their number. */
function byCapacity(count: number) {
  const builder = new HeldOrderBuilder();
  const rows = Array.from({ length: count }, (_, i) => row(`u${String(i).padStart(3, "0")}`, ["", "", "", "", i, 0, 0]));
  rows.forEach((r) => builder.add(r));
  return { order: builder.finish()!, ids: Int32Array.from(rows, (_, i) => i + 1), rows };
}

describe("HeldOrder.page", () => {
  it("is SQLite's order by any column, either way, after values moved and with changed rows", () => {
    fc.assert(
      fc.property(
        fc.array(values, { minLength: 1, maxLength: 60 }),
        fc.array(fc.tuple(fc.nat(59), values), { maxLength: 12 }),
        fc.array(values, { maxLength: 3 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom<HeldPageWay | undefined>(undefined, "walk", "pick"),
        fc.tuple(fc.nat(HELD_SORT_COLUMNS.length - 1), fc.boolean(), fc.nat(8), fc.integer({ min: 1, max: 20 })),
        (initial, updates, changedValues, matchEvery, way, [column, desc, page, size]) => {
          // Names are unique in a domain; some differ only past a shared start.
          const rows = initial.map((v, i) => row(`n${(i * 7) % 61}`, v));
          const ids = rows.map((_, i) => 100 + 2 * i);
          const builder = new HeldOrderBuilder();
          rows.forEach((r) => builder.add(r));
          const order = builder.finish()!;
          const hasSlot = (slot: number) => slot % matchEvery === 0;
          const slots = rows.map((_, slot) => slot).filter(hasSlot);
          const changed = changedValues.map((v, i) => ({ id: 1000 + i, row: row(`c${i}`, v) }));
          const pageOf = () => order.page(Int32Array.from(ids), { count: slots.length, slots: () => slots, hasSlot, changed }, column, desc, page * size, size, way);
          pageOf(); // sorts the column's order, so that the updates below move slots in it
          for (const [at, v] of updates) {
            const slot = at % rows.length;
            // Dates and numbers change in place; a changed name or description makes a changed row instead.
            rows[slot] = row(rows[slot]![0] as string, [rows[slot]![1] as string, ...v.slice(1)] as typeof v);
            expect(order.update(slot, rows[slot])).toBe(true);
          }
          const matching = slots.map((slot) => rows[slot]!).concat(changed.map((c) => c.row));
          const matchingIds = slots.map((slot) => ids[slot]!).concat(changed.map((c) => c.id));
          expect(pageOf()).toEqual(expectedPage(matching, matchingIds, column, desc, page * size, size));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("walks past a bunch of non-matching entries, and picks once the walk's budget is spent", () => {
    const { order, ids, rows } = byCapacity(400);
    // The 100 largest capacities match. A page of 5 should take a walk of 20 entries, so it walks; in ascending
    // order it meets them only after 300 others, beyond its budget (twice the matches), so the page is picked.
    // Forced, the walk goes on and finds them; descending, it finds them at once.
    const hasSlot = (slot: number) => slot >= 300;
    const slots = rows.map((_, slot) => slot).filter(hasSlot);
    for (const way of [undefined, "walk", "pick"] as const) {
      expect(idsOf(order.page(ids, { count: slots.length, slots: () => slots, hasSlot, changed: [] }, 5, false, 0, 5, way))).toEqual([301, 302, 303, 304, 305]);
      expect(idsOf(order.page(ids, { count: slots.length, slots: () => slots, hasSlot, changed: [] }, 5, true, 5, 3, way))).toEqual([395, 394, 393]);
    }
  });

  it("takes a slot whose value moved out of its old place in the walked order", () => {
    const { order, ids, rows } = byCapacity(64);
    const all = { count: rows.length, slots: () => rows.map((_, slot) => slot), hasSlot: () => true, changed: [] };
    expect(idsOf(order.page(ids, all, 5, false, 0, 3, "walk"))).toEqual([1, 2, 3]);
    expect(order.update(0, row("u000", ["", "", "", "", 100, 0, 0]))).toBe(true);
    expect(order.update(40, row("u040", ["", "", "", "", -1, 0, 0]))).toBe(true);
    // Moved a little: still on the page, once.
    expect(order.update(2, row("u002", ["", "", "", "", 2.5, 0, 0]))).toBe(true);
    expect(idsOf(order.page(ids, all, 5, false, 0, 4, "walk"))).toEqual([41, 2, 3, 4]);
    expect(idsOf(order.page(ids, all, 5, true, 0, 2, "walk"))).toEqual([1, 64]);
  });

  it("is built with every column's order sorted, so that no request sorts one", () => {
    expect(byCapacity(40).order.heldOrders()).toBe(HELD_SORT_COLUMNS.length);
  });
});
