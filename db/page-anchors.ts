// Deep pages of a list without a search. OFFSET n walks n index entries, so page 1,000 of 100,000 accounts passed
// 50,000 of them on every request. Each engine's page reader (db/sqlite/page-rows.ts, db/pg/dialect.ts) remembers
// the name and sort value of entries at multiples of SPACING in a sort order, its anchors, per domain and while the
// domain's search_version is unchanged; a page then seeks past its anchor and skips fewer than SPACING entries.
// search_version moves (triggers, whichever process writes) when a row comes, goes, or changes its search key or a
// sort key below; the sorts the mail server writes on every login or delivery (last_auth_date, usage) keep OFFSET.
import { setBounded } from "@/lib/server/store/bounded-map";

/** Entries between two anchors: the most a page skips after seeking. */
export const SPACING = 1_000;
/** Sort orders remembered per connection (SQLite) or process (PostgreSQL); a few kB each at 100,000 rows. */
const MAX_ORDERS = 256;

/**
 * Per table, the sort columns every change of which moves search_version. The others keep OFFSET: the mail server's
 * (last sign-in, usage), and a mailing list's description, whose change of letter case alone leaves its lowercased
 * search key, and so the version, as it was (a domain has few lists).
 */
export const ANCHORED_SORTS: Record<string, ReadonlySet<string>> = {
  accounts: new Set(["name", "creation_date", "expiration_date", "capacity", "description", "blocked"]),
  aliases: new Set(["name", "target"]),
  mailing_lists: new Set(["name"]),
};

/** An entry of a sort order: its sort value and its name (unique in the domain, so the pair orders totally). */
export interface Anchor {
  value: unknown;
  name: string;
}

/**
 * The anchor a page at `offset` stands on (anchor k is the entry at position k * SPACING - 1; 0 for none) and the
 * entries it skips after seeking past it.
 */
export function anchorFor(offset: number): { k: number; skip: number } {
  const k = Math.floor(offset / SPACING);
  return { k, skip: offset - k * SPACING };
}

/**
 * The anchors known per sort order, each set valid for one search_version of its domain. A missing anchor is found
 * by one walk from the nearest known one before it, so the first deep page after a change costs about what OFFSET
 * did, and pages near a known anchor skip fewer than SPACING entries.
 */
export class AnchorStore {
  private readonly orders = new Map<string, { version: number; anchors: Map<number, Anchor> }>();

  /**
   * Anchor k of `order` at `version` if known; else where to find it: past the nearest known anchor before it (none:
   * from the order's start), the entry at `offset` of that walk.
   */
  find(order: string, version: number, k: number): { anchor: Anchor } | { from: Anchor | undefined; offset: number } {
    const found = this.orders.get(order);
    const known = found?.version === version ? found.anchors : new Map<number, Anchor>();
    const anchor = known.get(k);
    if (anchor) return { anchor };
    let j = 0;
    for (const i of known.keys()) if (i < k && i > j) j = i;
    return { from: known.get(j), offset: (k - j) * SPACING - 1 };
  }

  remember(order: string, version: number, k: number, anchor: Anchor): void {
    const found = this.orders.get(order);
    if (found?.version === version) found.anchors.set(k, anchor);
    else setBounded(this.orders, MAX_ORDERS, order, { version, anchors: new Map([[k, anchor]]) });
  }
}
