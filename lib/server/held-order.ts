// The sort columns of a held domain's accounts (held-search.ts), so that a searched page is found in memory: the
// first offset + size matches in the list's order, by walking the column's held order or by picking among all the
// search's matches (page()). Before, a page read and sorted every matching row (about 1.5 µs each, so a term with
// ten times the matches in the 100k domain cost ten times as much as in the 10k one) or walked a sort index in
// SQLite, which took up to 90 times the entries it expected where the matches bunch in the order (issue 4).
//
// The order is SQLite's: the column as stored (numbers numerically; text by BINARY collation, which is code point
// order, as UTF-8 bytes compare), then name (unique in a domain), both in the asked direction.
//
// Held without a JS object per account, so they add nothing for the garbage collector to trace: name and
// description as one string each, sliced for a page's rows (they change only with the search key, and a changed
// key makes the account a changed row in held-search.ts), dates as numbers of distinct strings, numbers in
// Float64Arrays. Numbers and dates change in place when the log reports a change of them.

import { smallestPairs } from "./smallest-pairs";
import { finish, sortedIndexes } from "./steps";
import { type JoinedTexts, TextList, TextListBuilder } from "./text-list";

/** The sortable columns of the accounts list (accounts.ts), in the order of a SortRow's values. */
export const HELD_SORT_COLUMNS = [
  "name",
  "description",
  "creation_date",
  "expiration_date",
  "last_auth_date",
  "capacity",
  "blocked",
  "usage_percent",
] as const;

/** Whether `column` (an SQL column) is one of HELD_SORT_COLUMNS. */
export const isHeldSortColumn = (column: string) => (HELD_SORT_COLUMNS as readonly string[]).includes(column);

const TEXTS = [0, 1];
const DATES = [2, 3, 4];
const NUMBERS = [5, 6, 7];

/** One account's values of HELD_SORT_COLUMNS. */
export type SortRow = (string | number)[];

/** Text in code point order (SQLite's BINARY collation on UTF-8): UTF-16 units compare so, except surrogates. */
function compareText(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (code points above U+FFFF) sort after U+E000-FFFF in code point order. */
const codePointRank = (unit: number) => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);

/** Text i and text j of a list, in code point order. */
function compareInList(list: TextList, i: number, j: number): number {
  const { units, starts } = list;
  const x = starts[i]!;
  const y = starts[j]!;
  const xLength = starts[i + 1]! - x;
  const yLength = starts[j + 1]! - y;
  const length = Math.min(xLength, yLength);
  for (let k = 0; k < length; k++) {
    const u = units[x + k]!;
    const v = units[y + k]!;
    if (u !== v) return codePointRank(u) - codePointRank(v);
  }
  return xLength - yLength;
}

/** A candidate of a page: a held slot (0, 1, ...) or a changed row, by its place in the changed list (-1, -2, ...). */
type Candidate = number;

/** An account on a page: its id and its values of HELD_SORT_COLUMNS. */
export interface PageEntry {
  id: number;
  row: SortRow;
}

export interface PageCandidates {
  /** How many held slots match. */
  count: number;
  /** The slots of the held rows that match (listed only where a page is picked among them). */
  slots: () => ArrayLike<number>;
  /** Whether a held slot matches. */
  hasSlot: (slot: number) => boolean;
  /** Matching accounts whose search key changed since the build (or that were added): id and current values. */
  changed: readonly PageEntry[];
  /** Whether every held slot matches (an unfiltered list): a page of an order all in place is then a stretch of it. */
  everySlot?: boolean;
}

/** How a page's held slots are found: by walking the column's order, or by picking among all the matches. */
export type HeldPageWay = "walk" | "pick";

/**
 * A column's order is dropped (and sorted again when next asked for) once this share of the slots has moved in it:
 * each moved slot that matches is compared with the walk's finds on every page.
 */
const REORDER_SHARE = 1 / 16;

export class HeldOrder {
  /**
   * Per column, the slots in order of (value, name rank): sorted by the build (sortingOrders), and sorted again when
   * next asked for after too many moved (REORDER_SHARE).
   */
  private readonly orders: (Int32Array | null)[] = HELD_SORT_COLUMNS.map(() => null);
  /** Per column, the slots whose value has changed since its order was sorted: out of place in it. */
  private readonly moved: Set<number>[] = HELD_SORT_COLUMNS.map(() => new Set());

  constructor(
    private readonly texts: JoinedTexts[],
    /** Per text column, each slot's place in the column's order (equal texts, equal places). */
    private readonly textRanks: Int32Array[],
    /** Per date column, each slot's date as its place in `dates`. */
    private readonly dateIds: Int32Array[],
    private readonly dates: Dates,
    private readonly numbers: Float64Array[],
  ) {}

  private get slotCount(): number {
    return this.textRanks[0]!.length;
  }

  /**
   * Takes a slot's new dates and numbers; false (nothing taken) if its name or description changed (they are held
   * as built) or a value is ill-typed.
   */
  update(slot: number, row: SortRow): boolean {
    if (!wellTyped(row) || TEXTS.some((c) => this.texts[c]!.text(slot) !== row[c])) return false;
    DATES.forEach((c, i) => {
      const id = this.dates.idOf(row[c] as string);
      if (this.dateIds[i]![slot] !== id) this.move(c, slot);
      this.dateIds[i]![slot] = id;
    });
    NUMBERS.forEach((c, i) => {
      if (this.numbers[i]![slot] !== row[c]) this.move(c, slot);
      this.numbers[i]![slot] = row[c] as number;
    });
    return true;
  }

  private move(column: number, slot: number): void {
    if (!this.orders[column]) return;
    const moved = this.moved[column]!.add(slot);
    if (moved.size > this.slotCount * REORDER_SHARE) {
      this.orders[column] = null;
      moved.clear();
    }
  }

  /**
   * The candidates on page [offset, offset + size) in order of `column` (in HELD_SORT_COLUMNS), then name,
   * descending if `desc`, with their values. Where the page should end within as many entries of the column's order as there
   * are matches, the order is walked (stopping after twice that many, if the matches are bunched further on);
   * otherwise, and then, the page is picked among all the matches (smallest-pairs.ts). Changed rows, few, are then
   * compared by their values with those. `way` is for tests.
   */
  page(ids: Int32Array, candidates: PageCandidates, column: number, desc: boolean, offset: number, size: number, way?: HeldPageWay): PageEntry[] {
    const { count: matches, changed } = candidates;
    const entry = (c: Candidate): PageEntry => (c >= 0 ? { id: ids[c]!, row: this.row(c) } : changed[-c - 1]!);
    // Every slot on the list and none moved or changed: the page is where it stands in the order, at any depth.
    if (candidates.everySlot && matches === this.slotCount && changed.length === 0 && !way) {
      const stretch = this.stretch(column, desc, offset, size);
      if (stretch) return stretch.map(entry);
    }
    const wanted = offset + size;
    const walk = way ? way === "walk" : (wanted * this.slotCount) / matches <= matches;
    let chosen: Candidate[] =
      (walk ? this.walk(candidates.hasSlot, column, desc, wanted, way ? Infinity : 2 * matches) : null) ??
      this.pick(candidates.slots(), column, desc, wanted);
    if (changed.length > 0) {
      // Each candidate's values read once, not once per comparison: an unfiltered list has every changed row
      // among its candidates (1,000 after a PUT of 1,000 names).
      const sign = desc ? -1 : 1;
      const valued = [...chosen, ...changed.map((_, i) => -i - 1)].map((c) => ({ c, row: c >= 0 ? this.row(c) : changed[-c - 1]!.row }));
      valued.sort((a, b) => sign * compareRows(a.row, b.row, column));
      chosen = valued.slice(0, wanted).map((v) => v.c);
    }
    return chosen.slice(offset).map(entry);
  }

  /** Entries [offset, offset + size) of the column's order, from its end if `desc`; null if slots moved in it. */
  private stretch(column: number, desc: boolean, offset: number, size: number): number[] | null {
    const order = this.orderOf(column);
    if (this.moved[column]!.size > 0) return null;
    const n = order.length;
    const found: number[] = [];
    for (let i = offset; i < Math.min(n, offset + size); i++) found.push(order[desc ? n - 1 - i : i]!);
    return found;
  }

  /**
   * The first `wanted` matching slots in the column's order, from its end if `desc`; null once `budget` entries
   * have been walked without finding them. Slots moved in the order since it was sorted are skipped there and
   * compared with the finds instead.
   */
  private walk(hasSlot: (slot: number) => boolean, column: number, desc: boolean, wanted: number, budget: number): number[] | null {
    const order = this.orderOf(column);
    const moved = this.moved[column]!;
    const found: number[] = [];
    const n = order.length;
    const entries = Math.min(n, budget);
    for (let i = 0; i < entries && found.length < wanted; i++) {
      const slot = order[desc ? n - 1 - i : i]!;
      if (hasSlot(slot) && (moved.size === 0 || !moved.has(slot))) found.push(slot);
    }
    if (found.length < wanted && entries < n) return null;
    if (moved.size === 0) return found;
    return this.pick([...found, ...[...moved].filter(hasSlot)], column, desc, wanted);
  }

  /**
   * The first `wanted` of `slots` in the column's order: each slot as a (value, name rank) pair, a text's or a date's
   * value being its place in its column's order, negated for a descending page.
   */
  private pick(slots: ArrayLike<number>, column: number, desc: boolean, wanted: number): number[] {
    const n = slots.length;
    const { values, names } = pairScratch(n);
    const sign = desc ? -1 : 1;
    const nameRank = this.textRanks[0]!;
    const date = DATES.indexOf(column);
    // One loop per kind of column, so that each reads its arrays directly.
    if (TEXTS.includes(column)) {
      const rank = this.textRanks[column]!;
      for (let i = 0; i < n; i++) values[i] = sign * rank[slots[i]!]!;
    } else if (date >= 0) {
      const dateIds = this.dateIds[date]!;
      const rank = this.dates.ranks();
      for (let i = 0; i < n; i++) values[i] = sign * rank[dateIds[slots[i]!]!]!;
    } else {
      const numbers = this.numbers[NUMBERS.indexOf(column)]!;
      for (let i = 0; i < n; i++) values[i] = sign * numbers[slots[i]!]!;
    }
    for (let i = 0; i < n; i++) names[i] = sign * nameRank[slots[i]!]!;
    return Array.from(smallestPairs(values, names, n, wanted), (i) => slots[i]!);
  }

  /**
   * Sorts every column's order that is not held, in steps (steps.ts). The build does it: sorted in the request that
   * first walked a column, an order of the bench's 100,000 accounts held every request of the server up 50-90 ms.
   */
  *sortingOrders(): Generator<void> {
    for (let column = 0; column < HELD_SORT_COLUMNS.length; column++) if (!this.orders[column]) yield* this.sortingOrder(column);
  }

  /** Sorts the column's order (see `orders`) and holds it, in steps. */
  private *sortingOrder(column: number): Generator<void, Int32Array> {
    const values = this.sortValues(column);
    const names = this.textRanks[0]!;
    const order = yield* sortedIndexes(this.slotCount, (a, b) => values[a]! - values[b]! || names[a]! - names[b]!);
    this.orders[column] = order;
    this.moved[column]!.clear();
    return order;
  }

  /** How many columns' orders are held (for tests: a build holds them all). */
  heldOrders(): number {
    return this.orders.filter(Boolean).length;
  }

  /** Each slot's value in the column as a number in its order: a text's or a date's place, or the number itself. */
  private sortValues(column: number): ArrayLike<number> {
    if (TEXTS.includes(column)) return this.textRanks[column]!;
    const date = DATES.indexOf(column);
    if (date < 0) return this.numbers[NUMBERS.indexOf(column)]!;
    const rank = this.dates.ranks();
    return this.dateIds[date]!.map((id) => rank[id]!);
  }

  /** The column's order (see `orders`), sorted now if it was dropped. */
  private orderOf(column: number): Int32Array {
    return this.orders[column] ?? finish(this.sortingOrder(column));
  }

  /** A held slot's values, as the database has them (a page's rows are built from them, not read). */
  private row(slot: number): SortRow {
    const row: SortRow = [];
    for (const c of TEXTS) row[c] = this.texts[c]!.text(slot);
    for (let i = 0; i < DATES.length; i++) row[DATES[i]!] = this.dates.text(this.dateIds[i]![slot]!);
    for (let i = 0; i < NUMBERS.length; i++) row[NUMBERS[i]!] = this.numbers[i]![slot]!;
    return row;
  }
}

/** Two rows by `column`, then name (SQLite's order). */
function compareRows(x: SortRow, y: SortRow, column: number): number {
  const a = x[column]!;
  const b = y[column]!;
  const byColumn = typeof a === "number" && typeof b === "number" ? a - b : compareText(String(a), String(b));
  return byColumn || (column === 0 ? 0 : compareText(x[0] as string, y[0] as string));
}

/** Each text's place in the list's order, equal texts sharing one; in steps (steps.ts). */
function* ranking(list: TextList): Generator<void, Int32Array> {
  const order = yield* sortedIndexes(list.length, (a, b) => compareInList(list, a, b));
  const ranks = new Int32Array(list.length);
  for (let i = 1; i < order.length; i++) {
    const same = compareInList(list, order[i - 1]!, order[i]!) === 0;
    ranks[order[i]!] = same ? ranks[order[i - 1]!]! : i;
    if (i % 8192 === 0) yield; // texts in sorted order are scattered in memory: about 2 ms a step
  }
  return ranks;
}

/** The distinct dates, numbered in order of first sight (few: days, not accounts). */
class Dates {
  private readonly texts: string[] = [];
  private readonly ids = new Map<string, number>();

  idOf(date: string): number {
    let id = this.ids.get(date);
    if (id === undefined) {
      id = this.texts.push(date) - 1;
      this.ids.set(date, id);
    }
    return id;
  }

  text(id: number): string {
    return this.texts[id]!;
  }

  /** Each date's place in code point order, by id (computed again once new dates have come). */
  ranks(): Int32Array {
    if (this.ranked.length !== this.texts.length) this.ranked = finish(ranking(TextList.of(this.texts)));
    return this.ranked;
  }

  private ranked: Int32Array = new Int32Array(0);
}

/** Collects a HeldOrder account by account, in slot order. */
export class HeldOrderBuilder {
  private readonly texts = TEXTS.map(() => new TextListBuilder(true));
  private readonly dates = new Dates();
  private readonly dateIds: number[][] = DATES.map(() => []);
  private readonly numbers: number[][] = NUMBERS.map(() => []);
  private wellTyped = true;

  add(row: SortRow): void {
    if (!wellTyped(row)) this.wellTyped = false;
    if (!this.wellTyped) return;
    TEXTS.forEach((c, i) => this.texts[i]!.add(row[c] as string));
    DATES.forEach((c, i) => this.dateIds[i]!.push(this.dates.idOf(row[c] as string)));
    NUMBERS.forEach((c, i) => this.numbers[i]!.push(row[c] as number));
  }

  /** Null if a value was not of its column's type (text, or a number), which the schema rules out. */
  finish(): HeldOrder | null {
    return finish(this.finishing());
  }

  /** finish() in steps (steps.ts). */
  *finishing(): Generator<void, HeldOrder | null> {
    if (!this.wellTyped) return null;
    // Ranked by their units; held as joined strings, which a page's rows are sliced from.
    const textRanks: Int32Array[] = [];
    for (const builder of this.texts) textRanks.push(yield* ranking(builder.finish()));
    const order = new HeldOrder(
      this.texts.map((builder) => builder.joined()),
      textRanks,
      this.dateIds.map((ids) => Int32Array.from(ids)),
      this.dates,
      this.numbers.map((values) => Float64Array.from(values)),
    );
    yield* order.sortingOrders();
    return order;
  }
}

function wellTyped(row: SortRow): boolean {
  return [...TEXTS, ...DATES].every((c) => typeof row[c] === "string") && NUMBERS.every((c) => typeof row[c] === "number");
}

/** The pairs of a page, reused: grown to the largest search's match count, never shrunk. */
let scratch = { values: new Float64Array(0), names: new Float64Array(0) };

function pairScratch(n: number): typeof scratch {
  if (scratch.values.length < n) scratch = { values: new Float64Array(n * 1.25), names: new Float64Array(n * 1.25) };
  return scratch;
}
