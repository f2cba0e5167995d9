// A substring index over one domain's search keys, held in memory (held-search.ts keeps it current with writes).
//
// Why: FTS5 answers a phrase by reading the whole doclist of each of its trigrams, over every domain, so a search
// cost grew with its number of matches, and a dense term cost a small domain as much as a big one. On the
// 114,000-account bench data a new term with 11,018 matches ("kowal") cost 3.5 ms to count and 1.6 ms more to hand
// its ids to JS (issue 4).
//
// How: a suffix array cut at DEPTH units. Every position of every key that has 3+ units left is one entry, and the
// entries are sorted by the key's next DEPTH units, the key's end sorting first. The entries that start with a
// search are then one range, found by two binary searches, whatever the number of matches; a search longer than
// DEPTH gets the range of its first DEPTH units, and each entry in it is checked for the rest. Counting is a pass
// over the range that counts each key once. A substring of UTF-16 units is a substring of characters too, so a
// match is exactly "search_key contains the search", the meaning of the LIKE and of the FTS5 phrase in
// list-page.ts (substring-table.test.ts checks the three against each other).
//
// Layout: the keys' UTF-16 units, renumbered 1..K in ascending order (codes, one byte each while a domain's keys
// use at most 255 distinct units), one after another with a 0 after each key. Slot i is the key of ids[i], ids
// ascending. An entry is slot << offsetBits | offset, so the key of an entry costs no lookup.

import { indexInAscending } from "./ascending";
import { finish } from "./steps";
import type { TextList } from "./text-list";

/** Units each entry is sorted by; longer searches check the rest of each entry in their range. */
const DEPTH = 6;
/** Searches are at least this long (list-page.ts sends shorter ones elsewhere); shorter tails get no entry. */
const MIN_SEARCH_UNITS = 3;

/** A search prepared against one table: its units as the table's codes. */
export interface TableSearch {
  /** How many keys (not marked stale) contain the text. */
  count(): number;
  /** The ids, ascending, of the keys (not marked stale) that contain the text. */
  ids(): number[];
  /**
   * The slots of the keys (not marked stale) that contain the text, in no particular order: a view of a list the
   * next search of the table overwrites.
   */
  slots(): Int32Array;
  /** Whether the key of `slot` (not marked stale) contains the text. */
  hasSlot(slot: number): boolean;
  /** Whether the key of `id`, as built, contains the text (false for an id not held or marked stale). */
  has(id: number): boolean;
}

const NO_MATCH: TableSearch = {
  count: () => 0,
  ids: () => [],
  slots: () => new Int32Array(0),
  hasSlot: () => false,
  has: () => false,
};

export class SubstringTable {
  /** Per slot: the query that last counted it (so a key with the search twice counts once). */
  private readonly countedBy: Int32Array;
  private query = 0;
  /** The slots the last search's pass found (a list reused by every search: no garbage per request). */
  private readonly matched: Int32Array;
  /**
   * The text of the last pass and what it found, while its stamps and list stand (no pass or markStale since): the
   * same search again (the next page of a search, a panel's refetch) uses them instead of passing again.
   */
  private lastPass: { text: string; query: number; found: number } | null = null;
  /** Slots whose key has changed since the build (held-search.ts holds their current keys). */
  private readonly stale: Uint8Array;
  private staleCount = 0;
  /**
   * slotById[id - ids[0]] is the slot of id (or -1), where the ids are dense enough (a walk asks for the slot of
   * every entry it passes); else slotOf searches the ids.
   */
  private readonly slotById: Int32Array | null;

  private constructor(
    /** Ascending ids: slot i is ids[i]. */
    readonly ids: Int32Array,
    /** Code of each unit (0 for units no key has). */
    private readonly codeOf: Uint16Array,
    /** The keys' codes, each key followed by a 0 (and DEPTH more 0s at the end). */
    private readonly codes: Uint8Array | Uint16Array,
    /** Where the key of each slot starts in `codes`. */
    private readonly keyStart: Int32Array,
    private readonly entries: Int32Array,
    private readonly offsetBits: number,
  ) {
    this.countedBy = new Int32Array(ids.length);
    this.matched = new Int32Array(ids.length);
    this.stale = new Uint8Array(ids.length);
    const span = ids.length === 0 ? 0 : ids[ids.length - 1]! - ids[0]! + 1;
    this.slotById = span <= 4 * ids.length ? new Int32Array(span).fill(-1) : null;
    for (let slot = 0; this.slotById && slot < ids.length; slot++) this.slotById[ids[slot]! - ids[0]!] = slot;
  }

  /** Builds the table; `ids` must ascend and `keys.text(i)` belong to `ids[i]`. Null if an entry would not fit. */
  static build(ids: Int32Array, keys: TextList): SubstringTable | null {
    return finish(SubstringTable.building(ids, keys));
  }

  /** build() in steps: yields every few milliseconds of work, so that a server can answer requests in between. */
  static *building(ids: Int32Array, keys: TextList): Generator<void, SubstringTable | null> {
    const { units, starts } = keys;
    const keyStart = new Int32Array(keys.length);
    let longest = 0;
    let entryCount = 0;
    const codeOf = new Uint16Array(65536);
    // The loops of a build run in plain functions a range at a time, the generator yielding between ranges: V8
    // runs a loop inside a generator several times slower.
    for (let i = 0; i < units.length; i += UNITS_A_STEP) {
      markUnits(codeOf, units, i, Math.min(units.length, i + UNITS_A_STEP));
      yield;
    }
    for (let slot = 0; slot < keys.length; slot++) {
      const length = keys.lengthOf(slot);
      keyStart[slot] = starts[slot]! + slot; // each key is followed by a 0
      longest = Math.max(longest, length);
      entryCount += Math.max(0, length - MIN_SEARCH_UNITS + 1);
    }
    const offsetBits = Math.max(1, Math.ceil(Math.log2(longest + 1)));
    if (keys.length > 2 ** (31 - offsetBits)) return null;
    let kinds = 0;
    for (let unit = 0; unit < 65536; unit++) if (codeOf[unit]) codeOf[unit] = ++kinds;
    if (kinds > 65535) return null; // codes are 16 bits, and 0 is the key's end

    const length = units.length + keys.length;
    const codes = kinds < 256 ? new Uint8Array(length + DEPTH) : new Uint16Array(length + DEPTH);
    for (let slot = 0; slot < keys.length; slot += SLOTS_A_STEP) {
      fillCodes(codes, codeOf, keys, keyStart, slot, Math.min(keys.length, slot + SLOTS_A_STEP));
      yield;
    }
    const entries = yield* sortEntries(entryCount, codes, keyStart, keys, offsetBits, kinds);
    return new SubstringTable(ids, codeOf, codes, keyStart, entries, offsetBits);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The slot of `id`, or -1. */
  slotOf(id: number): number {
    const ids = this.ids;
    if (this.slotById) {
      const slot = this.slotById[id - ids[0]!];
      return slot === undefined ? -1 : slot;
    }
    return indexInAscending(ids, id);
  }

  /** Whether the key of `slot` (not marked stale) is `key`. */
  keyIs(slot: number, key: string): boolean {
    if (this.stale[slot]) return false;
    const at = this.keyStart[slot]!;
    for (let i = 0; i < key.length; i++) if (this.codes[at + i] !== this.codeOf[key.charCodeAt(i)]) return false;
    return this.codes[at + key.length] === 0;
  }

  /** Marks the key of `id` as changed since the build: it no longer counts or matches here. */
  markStale(id: number): void {
    const slot = this.slotOf(id);
    if (slot >= 0 && !this.stale[slot]) {
      this.stale[slot] = 1;
      this.staleCount++;
    }
    this.lastPass = null;
  }

  /** What every key (not marked stale) matches: the unfiltered list of a held domain. */
  everything(): TableSearch {
    const { ids, stale } = this;
    const live = (slot: number) => stale[slot] === 0;
    const slots = () => {
      const list = new Int32Array(ids.length - this.staleCount);
      for (let slot = 0, n = 0; slot < ids.length; slot++) if (live(slot)) list[n++] = slot;
      return list;
    };
    return {
      count: () => ids.length - this.staleCount,
      slots,
      hasSlot: live,
      ids: () => Array.from(slots(), (slot) => ids[slot]!),
      has: (id) => {
        const slot = this.slotOf(id);
        return slot >= 0 && live(slot);
      },
    };
  }

  /** `text` (at least MIN_SEARCH_UNITS units) prepared for count, ids and has. */
  search(text: string): TableSearch {
    if (text.length < MIN_SEARCH_UNITS) throw new Error(`a search of ${text.length} units has no entries`);
    const wanted = new Uint16Array(text.length);
    for (let i = 0; i < text.length; i++) {
      wanted[i] = this.codeOf[text.charCodeAt(i)]!;
      if (wanted[i] === 0) return NO_MATCH; // a unit no key has
    }
    const ids = this.ids;
    // One pass over the search's range lists the matching keys' slots in `matched` and stamps them in countedBy
    // with this query's number; has() reads the stamp, slots() the list. Another search's pass overwrites both, so
    // a search passes again if one ran.
    let stamp = 0;
    let found = 0;
    const last = this.lastPass;
    if (last?.text === text && last.query === this.query) ({ query: stamp, found } = last);
    const pass = () => {
      if (stamp !== 0 && stamp === this.query) return;
      found = this.passOver(wanted);
      stamp = this.query;
      this.lastPass = { text, query: stamp, found };
    };
    const slots = () => {
      pass();
      return this.matched.subarray(0, found);
    };
    return {
      count: () => {
        pass();
        return found;
      },
      slots,
      hasSlot: (slot) => {
        pass();
        return this.countedBy[slot] === stamp;
      },
      ids: () => Array.from(slots())
        .sort((a, b) => a - b)
        .map((slot) => ids[slot]!),
      has: (id) => {
        pass();
        const slot = this.slotOf(id);
        return slot >= 0 && this.countedBy[slot] === stamp;
      },
    };
  }

  /**
   * Lists the slot of each key (not marked stale) that contains `wanted` once in `matched` (returning how many),
   * and stamps those slots in countedBy with a new query number.
   */
  private passOver(wanted: Uint16Array): number {
    if (this.query === 0x7fffffff) {
      this.countedBy.fill(0);
      this.query = 0;
    }
    const query = ++this.query;
    const [from, to] = this.range(wanted);
    const { entries, countedBy, stale, offsetBits, matched } = this;
    const checkRest = wanted.length > DEPTH;
    let found = 0;
    for (let i = from; i < to; i++) {
      const entry = entries[i]!;
      const slot = entry >>> offsetBits;
      if (countedBy[slot] === query || stale[slot]) continue;
      if (checkRest && this.compare(entry, wanted, DEPTH, wanted.length) !== 0) continue;
      countedBy[slot] = query;
      matched[found++] = slot;
    }
    return found;
  }

  /** Entries [from, to) whose first min(DEPTH, length) units are the wanted ones. */
  private range(wanted: Uint16Array): [number, number] {
    const depth = Math.min(DEPTH, wanted.length);
    // The first entry not below the text, then the first entry above it.
    const firstNot = (above: boolean) => {
      let low = 0;
      let high = this.entries.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const c = this.compare(this.entries[middle]!, wanted, 0, depth);
        if (c < 0 || (above && c === 0)) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    return [firstNot(false), firstNot(true)];
  }

  /** The entry's units [from, to) against the wanted ones: negative if they sort before, 0 if equal. */
  private compare(entry: number, wanted: Uint16Array, from: number, to: number): number {
    const at = this.keyStart[entry >>> this.offsetBits]! + (entry & ((1 << this.offsetBits) - 1));
    for (let i = from; i < to; i++) {
      const d = this.codes[at + i]! - wanted[i]!;
      if (d !== 0) return d; // the key's end (0) sorts first, and no wanted unit is 0
    }
    return 0;
  }
}

/** How much of a build runs between two yields of building(): on the bench data, a few milliseconds at most. */
const UNITS_A_STEP = 65_536;
const SLOTS_A_STEP = 1024;
const ENTRIES_A_STEP = 4_096;

function markUnits(codeOf: Uint16Array, units: Uint16Array, from: number, to: number): void {
  for (let i = from; i < to; i++) codeOf[units[i]!] = 1;
}

/** The codes of the keys of slots [fromSlot, toSlot). */
function fillCodes(
  codes: Uint8Array | Uint16Array,
  codeOf: Uint16Array,
  keys: TextList,
  keyStart: Int32Array,
  fromSlot: number,
  toSlot: number,
): void {
  const { units, starts } = keys;
  for (let slot = fromSlot; slot < toSlot; slot++) {
    const from = starts[slot]!;
    const at = keyStart[slot]!;
    const length = keys.lengthOf(slot);
    for (let i = 0; i < length; i++) codes[at + i] = codeOf[units[from + i]!]!;
  }
}

/** Entries of one sort step below this many are sorted by insertion. */
const SMALL_RANGE = 24;

/**
 * The entries sorted by their first DEPTH codes, most significant first: placed by their first two codes as they
 * are listed (in order of position), then each group of equal codes sorted on by a stable counting sort on the
 * next code (or the next two, for a large group), and so on. Each step keeps the order of position inside a group,
 * so it reads the codes in ascending memory order (sorting least significant first read them at random: 4.2 s for
 * the bench's 100,000 keys, against about 0.8 s), and needs spare room only for the largest group, not for all
 * entries.
 */
function* sortEntries(
  entryCount: number,
  codes: Uint8Array | Uint16Array,
  keyStart: Int32Array,
  keys: TextList,
  offsetBits: number,
  kinds: number,
): Generator<void, Int32Array> {
  const mask = (1 << offsetBits) - 1;
  const codeAt = (entry: number, depth: number) => codes[keyStart[entry >>> offsetBits]! + (entry & mask) + depth]!;
  const radix = kinds + 1;
  // Placing by the first two codes (every entry has 3+ units, so neither is the key's end).
  const firstTwo = radix * radix <= 1 << 22;
  const groupOf = (at: number) => (firstTwo ? codes[at]! * radix + codes[at + 1]! : codes[at]!);
  const groupEnds = new Int32Array(firstTwo ? radix * radix : radix);
  const visitEntries = (fromSlot: number, toSlot: number, visit: (entry: number, at: number) => void) => {
    for (let slot = fromSlot; slot < toSlot; slot++) {
      const last = keys.lengthOf(slot) - MIN_SEARCH_UNITS;
      for (let offset = 0; offset <= last; offset++) visit((slot << offsetBits) | offset, keyStart[slot]! + offset);
    }
  };
  function* eachEntry(visit: (entry: number, at: number) => void) {
    for (let slot = 0; slot < keys.length; slot += SLOTS_A_STEP) {
      visitEntries(slot, Math.min(keys.length, slot + SLOTS_A_STEP), visit);
      yield;
    }
  }
  yield* eachEntry((_, at) => groupEnds[groupOf(at)]!++);
  let largest = 0;
  for (let g = 0, at = 0; g < groupEnds.length; g++) {
    const n = groupEnds[g]!;
    largest = Math.max(largest, n);
    groupEnds[g] = at;
    at += n;
  }
  const entries = new Int32Array(entryCount);
  yield* eachEntry((entry, at) => (entries[groupEnds[groupOf(at)]!++] = entry));
  // groupEnds[g] is now where group g ends.
  const todo: number[] = [];
  const next = firstTwo ? 2 : 1;
  for (let g = 0, from = 0; g < groupEnds.length; from = groupEnds[g++]!) {
    if (groupEnds[g]! - from > 1 && next < DEPTH) todo.push(from, groupEnds[g]!, next);
  }

  // Steps on two codes at once only where radix^2 counters stay small (a domain's keys use some 50-100 units).
  const pairs = radix * radix <= 1 << 16;
  const ends = new Int32Array(pairs ? radix * radix : radix);
  const spare = new Int32Array(largest);
  // The group each entry of a step goes to, found once (in the counting pass) instead of twice.
  const digits = new Uint16Array(largest);
  /** Each entry of [a, b) of a step's range [from, ...): its group in digits, counted in ends. */
  const countDigits = (a: number, b: number, from: number, depth: number, two: boolean) => {
    for (let i = a; i < b; i++) {
      const entry = entries[i]!;
      const first = codeAt(entry, depth);
      const digit = !two ? first : first === 0 ? 0 : first * radix + codeAt(entry, depth + 1);
      digits[i - from] = digit;
      ends[digit]!++;
    }
  };
  let work = 0;
  while (todo.length > 0) {
    const depth = todo.pop()!;
    const to = todo.pop()!;
    const from = todo.pop()!;
    work += to - from;
    if (work >= ENTRIES_A_STEP) {
      work = 0;
      yield;
    }
    if (to - from < SMALL_RANGE) {
      insertionSort(entries, from, to, (a, b) => {
        for (let d = depth; d < DEPTH; d++) {
          const x = codeAt(a, d);
          const y = codeAt(b, d);
          if (x !== y || x === 0) return x - y;
        }
        return 0;
      });
      continue;
    }
    // Two codes at once where the range is large enough to pay for radix^2 counters; after a key's end (code 0)
    // the second code is 0 too, so every entry whose key ended is in one group.
    const two = pairs && depth + 2 <= DEPTH && to - from >= 4 * radix * radix;
    const groups = two ? radix * radix : radix;
    ends.fill(0, 0, groups);
    // A group can hold a few hundred thousand entries: its passes yield too.
    for (let a = from; a < to; a += ENTRIES_A_STEP) {
      countDigits(a, Math.min(to, a + ENTRIES_A_STEP), from, depth, two);
      if (to - from > ENTRIES_A_STEP) yield;
    }
    for (let g = 0, at = 0; g < groups; g++) {
      const n = ends[g]!;
      ends[g] = at;
      at += n;
    }
    // ends[g] is now where group g starts (from `from`); placing each entry moves it on, so afterwards it is
    // where g ends.
    for (let a = from; a < to; a += ENTRIES_A_STEP) {
      const b = Math.min(to, a + ENTRIES_A_STEP);
      for (let i = a; i < b; i++) spare[ends[digits[i - from]!]!++] = entries[i]!;
      if (to - from > ENTRIES_A_STEP) yield;
    }
    entries.set(spare.subarray(0, to - from), from);
    const deeper = depth + (two ? 2 : 1);
    if (deeper === DEPTH) continue;
    // Groups whose key ended (the first, and with two codes every multiple of radix) are in order already.
    for (let g = 1; g < groups; g++) {
      const groupFrom = ends[g - 1]!;
      if (ends[g]! - groupFrom > 1 && (!two || g % radix !== 0)) todo.push(from + groupFrom, from + ends[g]!, deeper);
    }
  }
  return entries;
}

function insertionSort(a: Int32Array, from: number, to: number, compare: (x: number, y: number) => number): void {
  for (let i = from + 1; i < to; i++) {
    const value = a[i]!;
    let j = i - 1;
    while (j >= from && compare(a[j]!, value) > 0) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = value;
  }
}
