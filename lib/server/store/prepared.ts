import "server-only";
// Statements are prepared once per connection, not per request: `prepared(build)` memoizes `build(db)`, an object
// of drizzle prepared statements (on PostgreSQL named, so each pooled connection parses and plans them once).
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";

export function prepared<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let value = cache.get(db);
    if (value === undefined) {
      value = dialectOf(db).keepPrepared(build(db));
      cache.set(db, value);
    }
    return value;
  };
}
