import "server-only";
// What this server process holds in memory for its large domains to search them: a substring table of the search
// keys (substring-table.ts) and the sort columns (held-order.ts), kept current with every write to the database,
// its own and other processes' (the CLI, the mail server).
//
// - They are built the first time a domain of minHeldRows+ accounts is searched (1.5-2.1 s for the bench's
//   100,000-account domain, 0.14-0.18 s for 10,000, in a fresh process); the request that builds them waits, and
//   so does every other request of this process meanwhile.
// - Writes reach them through the change log (migrations 0007, 0008): whenever the database has changed
//   (db-generation.ts), the entries after the last one applied are read and each changed account is read again.
//   New dates and numbers are written in place; an account whose search key, name or description changed (or that
//   was added) goes into the `changed` map, which overrides the held entry for that id. Tables with too many such
//   accounts, or that missed log entries (pruned before this process read them), are dropped and built again on
//   their next search.
// - Inside a transaction nothing is held or applied (a rolled-back write would leave them wrong); the caller
//   searches the trigram index instead, as for small domains.
import type { Db } from "@/db/client";
import { dbGeneration } from "./db-generation";
import { prepared } from "./prepared";
import { HELD_SORT_COLUMNS, HeldOrderBuilder, type HeldOrder, type SortRow } from "./held-order";
import { SubstringTable, type TableSearch } from "./substring-table";
import { TextListBuilder } from "./text-list";

/** Smaller domains search the trigram index: a search there costs about a millisecond or less anyway. */
let minHeldRows = 2_000;
/** Keys held over all domains (about 300 bytes each); the least recently searched domain goes first. */
const MAX_HELD_KEYS = 300_000;
/** A table is rebuilt once this share of its keys has changed (each changed key is tested on every search). */
const REBUILD_SHARE = 1 / 16;

/** For tests: hold domains from this many accounts on. */
export function holdDomainsFrom(rows: number): void {
  minHeldRows = rows;
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
  lastUsed: number;
}

interface Holdings {
  domains: Map<number, Held>;
  /** The last change log entry applied. */
  seq: number;
  /** The database generation the tables are current for. */
  generation: string | null;
}

const holdings = new WeakMap<Db, Holdings>();
let uses = 0;

const SORT_COLUMNS = HELD_SORT_COLUMNS.join(", ");

const statements = prepared((db) => ({
  lastSeq: db.$client.prepare<[], number>("SELECT coalesce(max(seq), 0) FROM account_search_changes").pluck(),
  changesAfter: db.$client.prepare<[number], { seq: number; id: number }>(
    "SELECT seq, account_id AS id FROM account_search_changes WHERE seq > ? ORDER BY seq",
  ),
  account: db.$client
    .prepare<[number], [number, string, ...SortRow]>(`SELECT domain_id, search_key, ${SORT_COLUMNS} FROM accounts WHERE id = ?`)
    .raw(),
  domainRows: db.$client
    .prepare<[number], [number, string, ...SortRow]>(
      `SELECT id, search_key, ${SORT_COLUMNS} FROM accounts WHERE domain_id = ? ORDER BY id`,
    )
    .raw(),
}));

/** A search's matches among the keys held for a domain, its changed keys included. */
export interface HeldMatches {
  count(): number;
  /** Ascending. */
  ids(): number[];
  has(id: number): boolean;
  /**
   * The ids of page [offset, offset + size) in order of `column`, then name (descending if `desc`); null for a
   * column that is not held.
   */
  page(column: string, desc: boolean, offset: number, size: number): number[] | null;
}

/**
 * The matches of `text` (lowercased, 3+ UTF-16 units) in a domain of `rowsInDomain` accounts, from the table held
 * for it (built now if need be); null where no table is held: small domains, and inside a transaction.
 */
export function heldSearch(db: Db, domainId: number, rowsInDomain: number, text: string): HeldMatches | null {
  if (rowsInDomain < minHeldRows) return null;
  const generation = dbGeneration(db);
  if (generation === null) return null;
  let state = holdings.get(db);
  if (!state) holdings.set(db, (state = { domains: new Map(), seq: 0, generation: null }));
  if (generation !== state.generation) applyChanges(db, state, generation);
  let held = state.domains.get(domainId);
  if (!held) {
    const built = build(db, state, domainId);
    if (!built) return null;
    held = built;
  }
  held.lastUsed = ++uses;
  return matches(held, held.table.search(text), text);
}

function matches(held: Held, search: TableSearch, text: string): HeldMatches {
  const changedHits: { id: number; row: SortRow }[] = [];
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
      const candidates = { slots: search.slots(), hasSlot: (slot: number) => search.hasSlot(slot), changed: changedHits };
      return held.order.page(held.table.ids, candidates, index, desc, offset, size);
    },
  };
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
  const missed = entries[0]!.seq !== state.seq + 1;
  state.seq = entries[entries.length - 1]!.seq;
  if (missed) {
    state.domains.clear();
    return;
  }
  const ids = new Set(entries.map((e) => e.id));
  for (const id of ids) {
    const now = s.account.get(id);
    for (const [domainId, held] of state.domains) {
      const slot = held.table.slotOf(id);
      if (now?.[0] === domainId) {
        const [, key, ...row] = now;
        // Same key as built: only dates or numbers changed, and they change in place.
        if (slot >= 0 && !held.changed.has(id) && held.table.keyIs(slot, key) && held.order.update(slot, row)) continue;
        held.changed.set(id, { key, row });
      } else if (held.changed.has(id) || slot >= 0) held.changed.set(id, null);
      else continue;
      held.table.markStale(id);
    }
  }
  for (const [domainId, held] of state.domains) {
    if (held.changed.size > held.table.size * REBUILD_SHARE) state.domains.delete(domainId);
  }
}

/**
 * Builds the domain's table from one snapshot of its keys, making room for it first. The snapshot is at least as
 * new as the log entries applied so far (state.seq); entries after those that it already holds are applied to it
 * again later, which changes nothing: an applied entry sets the account's current key.
 */
function build(db: Db, state: Holdings, domainId: number): Held | null {
  const s = statements(db);
  // Row by row into typed arrays: arrays of strings, or an array per account, would triple what a build holds at
  // its peak (about 150 MB for the 100,000-account bench domain).
  const idList: number[] = [];
  const keys = new TextListBuilder();
  const sortValues = new HeldOrderBuilder();
  for (const [id, key, ...values] of s.domainRows.iterate(domainId)) {
    idList.push(id);
    keys.add(key);
    sortValues.add(values);
  }
  const table = SubstringTable.build(Int32Array.from(idList), keys.finish());
  const order = sortValues.finish();
  if (!table || !order) return null;
  let heldKeys = table.size;
  for (const h of state.domains.values()) heldKeys += h.table.size;
  for (const [id, h] of [...state.domains].sort((a, b) => a[1].lastUsed - b[1].lastUsed)) {
    if (heldKeys <= MAX_HELD_KEYS) break;
    state.domains.delete(id);
    heldKeys -= h.table.size;
  }
  const held: Held = { table, order, changed: new Map(), lastUsed: 0 };
  state.domains.set(domainId, held);
  return held;
}
