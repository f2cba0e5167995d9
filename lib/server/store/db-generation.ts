import "server-only";
// Facts read from the database that may be reused while it is unchanged (credential lookups, domains by name, list
// totals). Another connection's commit (the CLI, the mail server) moves PRAGMA data_version; this connection's
// own writes move total_changes(). Nothing is reused or kept inside a transaction: a write that is rolled back
// would leave the stamp moved but make a value read in between wrong.
import type { Db } from "@/db/client";
import { setBounded } from "./bounded-map";
import { prepared } from "./prepared";

const stamps = prepared((db) => ({
  dataVersion: db.$client.prepare<[], number>("PRAGMA data_version").pluck(),
  totalChanges: db.$client.prepare<[], number>("SELECT total_changes()").pluck(),
}));

/** A stamp that differs whenever the database may have changed since it was taken; null inside a transaction. */
export function dbGeneration(db: Db): string | null {
  if (db.$client.inTransaction) return null;
  const s = stamps(db);
  return `${s.dataVersion.get()!}:${s.totalChanges.get()!}`;
}

/** A bounded map of values read from one database, emptied whenever that database changes. */
export class UntilChangedCache<V> {
  private readonly entries = new Map<string, V>();
  private generation: string | null = null;
  private db: Db | undefined;

  constructor(private readonly max: number) {}

  /** The value remembered for `key` while the database is unchanged, else `read()` (remembered when not undefined). */
  get(db: Db, key: string, read: () => V | undefined): V | undefined {
    const generation = dbGeneration(db);
    if (generation === null) return read();
    if (generation !== this.generation || db !== this.db) {
      this.entries.clear();
      this.generation = generation;
      this.db = db;
    }
    let value = this.entries.get(key);
    if (value === undefined) {
      value = read();
      if (value === undefined) return value;
      setBounded(this.entries, this.max, key, value);
    }
    return value;
  }
}
