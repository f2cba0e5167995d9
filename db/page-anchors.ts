// Deep pages of a list without a search. OFFSET n walks n index entries, so page 1,000 of 100,000 accounts passed
// 50,000 of them on every request. Each engine's page reader (db/sqlite/page-rows.ts, db/pg/dialect.ts) remembers
// the name and sort value of every SPACING-th entry of a sort order, its anchors, per domain and while the domain's
// search_version is unchanged; a page then seeks past the nearest anchor and skips fewer than SPACING entries.
// search_version moves (triggers, whichever process writes) when a row comes, goes, or changes its search key or a
// sort key below; the sorts the mail server writes on every login or delivery (last_auth_date, usage) keep OFFSET.
import { setBounded } from "@/lib/server/store/bounded-map";

/** Entries between two anchors: the most a page skips after seeking. */
export const SPACING = 1_000;
/** Sort orders remembered per connection (SQLite) or process (PostgreSQL); a few kB each at 100,000 rows. */
const MAX_ORDERS = 256;

/** Per table, the sort columns every change of which moves search_version (the rest are the mail server's). */
export const ANCHORED_SORTS: Record<string, ReadonlySet<string>> = {
  accounts: new Set(["name", "creation_date", "expiration_date", "capacity", "description", "blocked"]),
  aliases: new Set(["name", "target"]),
  mailing_lists: new Set(["name", "description"]),
};

/** An entry of a sort order: its sort value and its name (unique in the domain, so the pair orders totally). */
export interface Anchor {
  value: unknown;
  name: string;
}

/** How many anchors a page at `offset` stands on: anchor k is the entry at position (k + 1) * SPACING - 1. */
export const anchorsBefore = (offset: number) => Math.floor(offset / SPACING);

/** The anchors known per sort order, each list valid for one search_version of its domain. */
export class AnchorStore {
  private readonly orders = new Map<string, { version: number; anchors: Anchor[] }>();

  /** The anchors of `order` found at `version` (none after a change). */
  known(order: string, version: number): Anchor[] {
    const found = this.orders.get(order);
    return found && found.version === version ? found.anchors : [];
  }

  remember(order: string, version: number, anchors: Anchor[]): void {
    setBounded(this.orders, MAX_ORDERS, order, { version, anchors });
  }
}
