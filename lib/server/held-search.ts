import "server-only";
// What this server process holds in memory for its large domains to search them: a substring table of the search
// keys (substring-table.ts) and the sort columns (held-order.ts), kept current with every write to the database,
// its own and other processes' (the CLI, the mail server). They hold every column of a list row, so a page's
// rows are built from them without reading the accounts (the email as name@domain, while every account's is).
//
// - The first search of a domain of minHeldRows+ accounts starts building them (2.2-2.4 s of work for the bench's
//   100,000-account domain, every column's order sorted in it; about 0.22 s for 10,000). The build runs in the
//   background, a slice of a few milliseconds between requests (steps.ts), and searches use the trigram index until
//   it is done; then the writes logged since it began are applied to it. GET /api/status tells how many builds are
//   under way.
// - Writes reach them through the change log (migrations 0007-0009): whenever the database has changed
//   (db-generation.ts), the entries after the last one applied are read and each changed account is read again.
//   New dates and numbers are written in place; an account whose search key, name or description changed (or that
//   was added) goes into the `changed` map, which overrides the held entry for that id. Tables with too many such
//   accounts, or that missed log entries (pruned before this process read them), are dropped and built again after
//   their next search.
// - Inside a transaction nothing is held or applied (a rolled-back write would leave them wrong); the caller
//   searches the trigram index instead, as for small domains.
import type { Db } from "@/db/client";
import { dbGeneration } from "./db-generation";
import { prepared } from "./prepared";
import { HELD_SORT_COLUMNS, HeldOrderBuilder, type HeldOrder, type PageEntry, type SortRow } from "./held-order";
import { SubstringTable, type TableSearch } from "./substring-table";
import { TextListBuilder } from "./text-list";

/** Smaller domains search the trigram index: a search there costs about a millisecond or less anyway. */
let minHeldRows = 2_000;
/** Keys held over all domains (about 300 bytes each); the least recently searched domain goes first. */
const MAX_HELD_KEYS = 300_000;
/** A table is rebuilt once this share of its keys has changed (tooChanged). */
const REBUILD_SHARE = 1 / 16;

/** How a build runs (startBuilding): milliseconds a slice, ids a read; `inline` (tests): at once, to its end. */
const PACE = { sliceMs: 8, idsARead: 4_096, inline: false };
const pace = { ...PACE };

/** For tests: hold domains from this many accounts on, building at this pace. */
export function holdDomainsFrom(rows: number, buildPace: Partial<typeof PACE> = {}): void {
  minHeldRows = rows;
  Object.assign(pace, PACE, buildPace);
}

/** How many domains `db` has tables held for, and how many builds are under way (GET /api/status). */
export function heldTables(db: Db): { held: number; building: number } {
  const state = holdings.get(db);
  return { held: state?.domains.size ?? 0, building: state?.building.size ?? 0 };
}

/** For tests: resolves once no build is under way for `db`. */
export async function heldBuildsDone(db: Db): Promise<void> {
  while ((holdings.get(db)?.building.size ?? 0) > 0) await new Promise((resolve) => setImmediate(resolve));
}

/** An account whose search key changed since the build, or that was added: its current key and sort values. */
interface ChangedRow {
  key: string;
  row: SortRow;
}

interface Held {
  table: SubstringTable;
  /** The sort values of the table's slots. */
  order: HeldOrder;
  /** Accounts whose search key changed since the build, by id: current values, or null once out of the domain. */
  changed: Map<number, ChangedRow | null>;
  /**
   * "@<domain>" while every account's email is its name followed by it (as POST makes it): then a page's rows are
   * built from the held values alone. Null once one is not; its pages read their rows.
   */
  emailSuffix: string | null;
  lastUsed: number;
}

interface Holdings {
  domains: Map<number, Held>;
  /** Builds under way, by domain: they run a slice at a time between requests. */
  building: Map<number, Generator<void, Built | null>>;
  /** The last change log entry applied. */
  seq: number;
  /** The database generation the tables are current for. */
  generation: string | null;
}

// On globalThis because Next loads this module once per bundle (the v1 handlers, the panel's pages, which read
// their first page in the server): one copy per bundle built and held the bench's 100k domain twice, about 75 MB
// more, and a second 2.3 s of background work when the panel first listed it.
const shared = ((globalThis as { __mailadminHeld?: { holdings: WeakMap<Db, Holdings>; uses: number } }).__mailadminHeld ??= {
  holdings: new WeakMap(),
  uses: 0,
});
const holdings = shared.holdings;

const SORT_COLUMNS = HELD_SORT_COLUMNS.join(", ");

const statements = prepared((db) => ({
  lastSeq: db.$client.prepare<[], number>("SELECT coalesce(max(seq), 0) FROM account_search_changes").pluck(),
  changesAfter: db.$client.prepare<[number], { seq: number; id: number }>(
    "SELECT seq, account_id AS id FROM account_search_changes WHERE seq > ? ORDER BY seq",
  ),
  account: db.$client
    .prepare<[number], [number, string, string, ...SortRow]>(
      `SELECT domain_id, search_key, email, ${SORT_COLUMNS} FROM accounts WHERE id = ?`,
    )
    .raw(),
  domainName: db.$client.prepare<[number], string>("SELECT name FROM domains WHERE id = ?").pluck(),
  // A span of ids read by the rowid, so that each read costs at most IDS_A_READ rows whatever the domain.
  domainRowsIn: db.$client
    .prepare<[number, number, number], [number, string, string, ...SortRow]>(
      `SELECT id, search_key, email, ${SORT_COLUMNS} FROM accounts NOT INDEXED WHERE id > ? AND id <= ? AND domain_id = ? ORDER BY id`,
    )
    .raw(),
  lastId: db.$client.prepare<[], number>("SELECT coalesce(max(id), 0) FROM accounts").pluck(),
}));

/** A search's matches among the keys held for a domain, its changed keys included. */
export interface HeldMatches {
  count(): number;
  /** Ascending. */
  ids(): number[];
  has(id: number): boolean;
  /**
   * Page [offset, offset + size) in order of `column`, then name (descending if `desc`): its ids, and its rows
   * (HELD_ROW_COLUMNS) unless an email is not name@domain; null for a column that is not held.
   */
  page(column: string, desc: boolean, offset: number, size: number): { ids: number[]; rows: HeldRow[] | null } | null;
}

/** The columns of an account a held page's rows have: its sort columns and its email. */
export const HELD_ROW_COLUMNS: readonly string[] = [...HELD_SORT_COLUMNS, "email"];
export type HeldRow = Record<string, string | number>;

/**
 * The matches of `text` (lowercased, 3+ UTF-16 units) in a domain of `rowsInDomain` accounts, from the table held
 * for it (built now if need be); null where no table is held: small domains, and inside a transaction.
 */
export function heldSearch(db: Db, domainId: number, rowsInDomain: number, text: string): HeldMatches | null {
  const held = heldFor(db, domainId, rowsInDomain);
  return held && matches(held, held.table.search(text), text);
}

/**
 * Every account of a domain of `rowsInDomain` accounts, from the tables held for it (built now if need be): its
 * unfiltered list, paged in memory like a search's; null where no table is held, as for heldSearch, and while
 * more than MAX_CHANGED_UNFILTERED accounts have changed since the build.
 */
export function heldEverything(db: Db, domainId: number, rowsInDomain: number): HeldMatches | null {
  const held = heldFor(db, domainId, rowsInDomain);
  return held && held.changed.size <= MAX_CHANGED_UNFILTERED ? matches(held, held.table.everything(), "", true) : null;
}

/**
 * Every changed account is on every page of the unfiltered list, compared with the page's held rows: with 1,000
 * changed (a PUT of 1,000 names) a page of the bench's 100k domain cost 0.71 ms in-process, where the sort index
 * reads it in about 0.2 ms.
 */
const MAX_CHANGED_UNFILTERED = 256;

/** The tables held for a domain, brought up to date with the database; null (a build started) where none are. */
function heldFor(db: Db, domainId: number, rowsInDomain: number): Held | null {
  if (rowsInDomain < minHeldRows) return null;
  const generation = dbGeneration(db);
  if (generation === null) return null;
  let state = holdings.get(db);
  if (!state) holdings.set(db, (state = { domains: new Map(), building: new Map(), seq: 0, generation: null }));
  if (generation !== state.generation) applyChanges(db, state, generation);
  let held = state.domains.get(domainId);
  if (!held) {
    startBuilding(db, state, domainId);
    held = state.domains.get(domainId); // there already if built inline (tests)
    if (!held) return null;
  }
  held.lastUsed = ++shared.uses;
  return held;
}

/** `everySlot`: the search matches every held key not marked stale (heldEverything). */
function matches(held: Held, search: TableSearch, text: string, everySlot = false): HeldMatches {
  const changedHits: PageEntry[] = [];
  for (const [id, changed] of held.changed) if (changed?.key.includes(text)) changedHits.push({ id, row: changed.row });
  changedHits.sort((a, b) => a.id - b.id);
  return {
    count: () => search.count() + changedHits.length,
    ids: () => mergeAscending(search.ids(), changedHits.map((hit) => hit.id)),
    has: (id) => {
      const changed = held.changed.get(id);
      return changed === undefined ? search.has(id) : !!changed?.key.includes(text);
    },
    page: (column, desc, offset, size) => {
      const index = (HELD_SORT_COLUMNS as readonly string[]).indexOf(column);
      if (index < 0) return null;
      const candidates = {
        count: search.count(),
        slots: () => search.slots(),
        hasSlot: (slot: number) => search.hasSlot(slot),
        changed: changedHits,
        everySlot,
      };
      const entries = held.order.page(held.table.ids, candidates, index, desc, offset, size);
      const suffix = held.emailSuffix;
      return { ids: entries.map((e) => e.id), rows: suffix === null ? null : entries.map((e) => heldRow(e, suffix)) };
    },
  };
}

function heldRow({ row }: PageEntry, emailSuffix: string): HeldRow {
  const values: HeldRow = { email: `${row[0]}${emailSuffix}` };
  for (let i = 0; i < HELD_SORT_COLUMNS.length; i++) values[HELD_SORT_COLUMNS[i]!] = row[i]!;
  return values;
}

function mergeAscending(a: number[], b: number[]): number[] {
  if (b.length === 0) return a;
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) merged.push(j >= b.length || (i < a.length && a[i]! < b[j]!) ? a[i++]! : b[j++]!);
  return merged;
}

/** Brings every held table up to the change log; drops the ones that cannot be brought up (see above). */
function applyChanges(db: Db, state: Holdings, generation: string): void {
  const s = statements(db);
  state.generation = generation;
  if (state.domains.size === 0) {
    // Nothing held yet: the next table is built from the present, so the log's past is not needed.
    state.seq = s.lastSeq.get()!;
    return;
  }
  const entries = s.changesAfter.all(state.seq);
  if (entries.length === 0) return;
  const missed = missedEntries(entries, state.seq);
  state.seq = entries[entries.length - 1]!.seq;
  if (missed) {
    state.domains.clear();
    return;
  }
  applyTo(db, state.domains, new Set(entries.map((e) => e.id)));
  for (const [domainId, held] of state.domains) if (tooChanged(held)) state.domains.delete(domainId);
}

/** `emailSuffix` (Held) after seeing an account's email: null once the email is not the name followed by it. */
const suffixStill = (emailSuffix: string | null, email: string, row: SortRow) =>
  emailSuffix !== null && email === `${row[0]}${emailSuffix}` ? emailSuffix : null;

/** Whether log entries after `seq` were pruned before `entries` (those after it) were read. */
const missedEntries = (entries: { seq: number }[], seq: number) => entries.length > 0 && entries[0]!.seq !== seq + 1;

/** Whether a table has too many changed keys to keep (each is tested on every search): it is built again. */
const tooChanged = (held: Held) => held.changed.size > held.table.size * REBUILD_SHARE;

/** Brings `tables` up to the current state of the accounts `ids`. */
function applyTo(db: Db, tables: Map<number, Held>, ids: Set<number>): void {
  const s = statements(db);
  for (const id of ids) {
    const now = s.account.get(id);
    for (const [domainId, held] of tables) {
      const slot = held.table.slotOf(id);
      if (now?.[0] === domainId) {
        const [, key, email, ...row] = now;
        held.emailSuffix = suffixStill(held.emailSuffix, email, row);
        // Same key as built: only dates or numbers changed, and they change in place.
        if (slot >= 0 && !held.changed.has(id) && held.table.keyIs(slot, key) && held.order.update(slot, row)) continue;
        held.changed.set(id, { key, row });
      } else if (held.changed.has(id) || slot >= 0) held.changed.set(id, null);
      else continue;
      held.table.markStale(id);
    }
  }
}

/** A domain's tables as built, and the last change log entry before their first read. */
interface Built {
  held: Held;
  fromSeq: number;
}

/**
 * Starts building the domain's tables in the background, unless under way: a slice of about pace.sliceMs at a time,
 * each on its own turn of the event loop, so requests (searches of this domain among them, from the trigram index)
 * are answered meanwhile. A build on the bench's 100,000-account domain is 2.2-2.4 s of work; at once, it held up
 * every request of the server that long.
 */
function startBuilding(db: Db, state: Holdings, domainId: number): void {
  if (state.building.has(domainId)) return;
  state.building.set(domainId, building(db, domainId));
  const slice = () => {
    const steps = state.building.get(domainId);
    if (!steps) return;
    // A transaction stays open across turns only if begun by hand (db.transaction() is synchronous): wait for it.
    if (!db.$client.open || db.$client.inTransaction) {
      if (db.$client.open) setTimeout(slice, 10);
      else state.building.delete(domainId);
      return;
    }
    const until = pace.inline ? Infinity : performance.now() + pace.sliceMs;
    try {
      for (;;) {
        const step = steps.next();
        if (step.done) {
          state.building.delete(domainId);
          if (step.value) hold(db, state, domainId, step.value);
          return;
        }
        if (performance.now() >= until) break;
      }
    } catch (error) {
      // Searches go on from the trigram index; the next one starts again.
      state.building.delete(domainId);
      console.error("held-search: a build failed", error);
      return;
    }
    setImmediate(slice);
  };
  if (pace.inline) slice();
  else setImmediate(slice);
}

/**
 * The domain's tables, in steps: its accounts read a span of ids at a time (an open cursor would keep the
 * connection busy between slices), then sorted. Writes made meanwhile are applied when it is done (hold()).
 */
function* building(db: Db, domainId: number): Generator<void, Built | null> {
  const s = statements(db);
  const fromSeq = s.lastSeq.get()!;
  const lastId = s.lastId.get()!;
  let emailSuffix: string | null = `@${s.domainName.get(domainId)}`;
  // Row by row into typed arrays: arrays of strings, or an array per account, would triple what a build holds at
  // its peak (about 150 MB for the 100,000-account bench domain).
  const idList: number[] = [];
  const keys = new TextListBuilder();
  const sortValues = new HeldOrderBuilder();
  for (let after = 0; after < lastId; after += pace.idsARead) {
    for (const [id, key, email, ...values] of s.domainRowsIn.all(after, after + pace.idsARead, domainId)) {
      emailSuffix = suffixStill(emailSuffix, email, values);
      idList.push(id);
      keys.add(key);
      sortValues.add(values);
    }
    yield;
  }
  const table = yield* SubstringTable.building(Int32Array.from(idList), keys.finish());
  const order = yield* sortValues.finishing();
  if (!table || !order) return null;
  return { held: { table, order, changed: new Map(), emailSuffix, lastUsed: 0 }, fromSeq };
}

/**
 * Holds a finished build: applies the writes logged since it began (it read some accounts before them, some
 * after; applying an entry again changes nothing, as it sets the account's current values), then makes room for
 * it. Dropped if the log has lost entries meanwhile, or too much changed: the next search starts again.
 */
function hold(db: Db, state: Holdings, domainId: number, { held, fromSeq }: Built): void {
  const entries = statements(db).changesAfter.all(fromSeq);
  if (missedEntries(entries, fromSeq)) return;
  applyTo(db, new Map([[domainId, held]]), new Set(entries.map((e) => e.id)));
  if (tooChanged(held)) return;
  let heldKeys = held.table.size;
  for (const h of state.domains.values()) heldKeys += h.table.size;
  for (const [id, h] of [...state.domains].sort((a, b) => a[1].lastUsed - b[1].lastUsed)) {
    if (heldKeys <= MAX_HELD_KEYS) break;
    state.domains.delete(id);
    heldKeys -= h.table.size;
  }
  // The other tables are current up to state.seq, this one up to the log's end; the next search applies what
  // follows state.seq to all of them.
  if (state.domains.size === 0) state.seq = entries.at(-1)?.seq ?? fromSeq;
  state.generation = null;
  held.lastUsed = ++shared.uses;
  state.domains.set(domainId, held);
}
