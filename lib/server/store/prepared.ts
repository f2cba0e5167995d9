import "server-only";
// Statements are prepared once per connection, not per request: `prepared(build)` memoizes `build(db)`.
import type { Db } from "@/db/client";

export function prepared<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let value = cache.get(db);
    if (value === undefined) {
      value = build(db);
      cache.set(db, value);
    }
    return value;
  };
}
