import "server-only";
// Statements are prepared once per connection, not per request: `prepared(build)` memoizes `build(db)`, an object
// of drizzle prepared statements (on PostgreSQL named, so each pooled connection parses and plans them once). A
// transaction on PostgreSQL is a new handle each time: it takes its pool's statements, bound to its connection
// (db/dialect.ts, `statementsFrom`), instead of building them again.
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";

export function prepared<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  const statementsOf = (db: Db): T => {
    let statements = cache.get(db);
    if (statements === undefined) {
      const dialect = dialectOf(db);
      statements = dialect.statementsFrom(db, statementsOf) ?? dialect.keepPrepared(build(db));
      cache.set(db, statements);
    }
    return statements;
  };
  return statementsOf;
}
