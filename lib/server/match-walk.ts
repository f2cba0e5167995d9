import "server-only";
// The walkMatchSet plan of list-page.ts: walk a domain's sort index in order and keep the entries whose id is among
// a search's matches, until the page's last hit. The ids cross to JS and are tested here, against the matches' ids
// in ascending order (a binary search), instead of in SQL against a set built from them: on the 114,000-account
// bench data SQLite spent about 0.2 µs per match building that set (1-2 ms for a term with 5,000-11,000 matches,
// issue 4), while an entry's id reaches JS in about 0.2 µs and a dense term's page walks a few hundred entries.
import type { Db } from "@/db/client";
import { indexInAscending } from "./ascending";
import { statement } from "./list-cache";

/** Whether `id` is in `ascendingIds`. */
export function hasId(ascendingIds: readonly number[], id: number): boolean {
  return indexInAscending(ascendingIds, id) >= 0;
}

/** One ordering of one domain's rows on `index`: `order` is its ORDER BY column dir[, name dir]. */
export interface SortWalk {
  table: string;
  index: string;
  column: string;
  dir: "ASC" | "DESC";
  order: string;
  domainId: number;
}

/** Fewer entries than this are never asked for at once (a statement step costs more than a few entries). */
const MIN_BATCH = 64;
/** A batch reads a quarter more than expected, so that one batch usually holds the rest of the page. */
const BATCH_SLACK = 1.25;

/**
 * How many entries to read next for `missing` more hits, `hits` having come in `walked` entries: a quarter more
 * than the hit rate so far says (doubling instead read ~880 entries for the last few hits of "kowal" by
 * expiration_date on the bench data, 0.2 µs each); twice as many as walked when nothing has hit yet.
 */
function nextBatchSize(missing: number, hits: number, walked: number): number {
  const expected = hits === 0 ? 2 * walked : (missing * walked) / hits;
  return Math.max(MIN_BATCH, Math.ceil(expected * BATCH_SLACK));
}

/**
 * The ids of the first `needed` entries of the ordering that `isMatch` accepts (fewer if the domain has fewer).
 * `expectedEntries`: how many entries that should take, with the matches spread evenly. Reads a quarter more than
 * that first, then as many as the hit rate so far asks for, each batch starting after the sort key of the previous
 * batch's last entry.
 */
export function walkMatchIds(
  db: Db,
  walk: SortWalk,
  isMatch: (id: number) => boolean,
  needed: number,
  expectedEntries: number,
): number[] {
  const { table, index, column, dir, order } = walk;
  const cmp = dir === "ASC" ? ">" : "<";
  const after = column === "name" ? `AND name ${cmp} ?` : `AND (${column}, name) ${cmp} (?, ?)`;
  const firstBatch = statement(db, `SELECT id FROM ${table} INDEXED BY ${index} WHERE domain_id = ? ${order} LIMIT ?`);
  const nextBatch = statement(db, `SELECT id FROM ${table} INDEXED BY ${index} WHERE domain_id = ? ${after} ${order} LIMIT ?`);
  const keyOf = statement(db, `SELECT ${column} AS key, name FROM ${table} WHERE id = ?`);

  const hits: number[] = [];
  let batch = Math.max(MIN_BATCH, Math.ceil(expectedEntries * BATCH_SLACK));
  let ids = firstBatch.pluck().all(walk.domainId, batch) as number[];
  let walked = ids.length;
  for (;;) {
    for (const id of ids) {
      if (isMatch(id) && hits.push(id) === needed) return hits;
    }
    if (ids.length < batch) return hits;
    const last = keyOf.get(ids[ids.length - 1]) as { key: unknown; name: string };
    const from = column === "name" ? [last.name] : [last.key, last.name];
    batch = nextBatchSize(needed - hits.length, hits.length, walked);
    ids = nextBatch.pluck().all(walk.domainId, ...from, batch) as number[];
    walked += ids.length;
  }
}
