import "server-only";
// Statements are prepared once per connection, not per request: `prepared(build)` memoizes `build(db)`, an object
// of drizzle prepared statements (on PostgreSQL named, so each pooled connection parses and plans them once), through
// the dialect (db/dialect.ts, `prepared`).
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";

export function prepared<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => cache.get(db) ?? dialectOf(db).prepared(db, build, cache);
}
