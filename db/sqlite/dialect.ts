// SQLite's side of db/dialect.ts. Transactions (docs/architecture.md, "Transactions"):
//
// better-sqlite3 is synchronous and drizzle's SQLite transactions cannot await (drizzle-orm #2275, #1472), while
// the services are async. One connection per process would let another request's awaited query run inside an
// open transaction. So each database has two connections in a process: the shared one, on which every read
// outside a transaction runs, and a write connection used only inside `transaction()`, behind an in-process queue
// (one transaction at a time) and opened with BEGIN IMMEDIATE, which takes SQLite's write lock (other processes
// wait for it, as before). While one request's transaction awaits, other requests read committed data on the
// shared connection and their writes wait in the queue. A write on the shared connection while the write
// connection holds the lock would busy-wait on the event loop that the holder needs: so in the web process every
// write goes through withTransaction (db/transaction.ts).
import type Database from "better-sqlite3";
import { fillPlaceholders, sql, type SQL } from "drizzle-orm";
import { AsyncLocalStorage } from "node:async_hooks";
import { setDialect, type Db, type Dialect } from "../dialect";
import { openSqlite } from "./connection";
import { sqlitePageRows } from "./page-rows";

/** What drizzle's SQLite handle holds: its SQL builder. */
interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
}

interface Writer {
  db: Db;
  /** Settles when the last queued transaction ends. */
  tail: Promise<void>;
}

/** The write connection of each shared connection. */
const writers = new WeakMap<Database.Database, Writer>();
/** The write connection on which the current async flow holds an open transaction. */
const holding = new AsyncLocalStorage<Db>();
let savepointCount = 0;

function writerOf(db: Db): Writer {
  let writer = writers.get(db.$client);
  if (!writer) {
    const conn = setDialect(openSqlite(db.$client.name), sqliteDialect);
    writer = { db: conn, tail: Promise.resolve() };
    writers.set(db.$client, writer);
    // The write connection is its own writer: withTransaction(tx, ...) nests.
    writers.set(conn.$client, writer);
  }
  return writer;
}

async function nested<T>(tx: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  const name = `sp${++savepointCount}`;
  tx.$client.exec(`SAVEPOINT ${name}`);
  try {
    const result = await fn(tx);
    tx.$client.exec(`RELEASE ${name}`);
    return result;
  } catch (err) {
    tx.$client.exec(`ROLLBACK TO ${name}`);
    tx.$client.exec(`RELEASE ${name}`);
    throw err;
  }
}

export const sqliteDialect: Dialect = {
  name: "sqlite",

  // better-sqlite3 compiles a statement once when it is prepared; the write connection's handle is one object, like
  // the shared one, so each builds its statements once.
  keepPrepared: (statements) => statements,
  statementsFrom: () => null,

  async transaction(db, fn) {
    const writer = writerOf(db);
    // Already inside this database's transaction (called with `tx`, or with the shared handle by code the
    // transaction called): a savepoint on the same connection, never a wait for itself.
    if (holding.getStore() === writer.db && writer.db.$client.inTransaction) return nested(writer.db, fn);
    const previous = writer.tail;
    let release!: () => void;
    writer.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    const conn = writer.db.$client;
    try {
      conn.exec("BEGIN IMMEDIATE");
      try {
        const result = await holding.run(writer.db, () => fn(writer.db));
        conn.exec("COMMIT");
        return result;
      } catch (err) {
        if (conn.inTransaction) conn.exec("ROLLBACK");
        throw err;
      }
    } finally {
      release();
    }
  },

  // The write connection's BEGIN IMMEDIATE already serialises every write to the file.
  lockDomain: () => Promise.resolve(),
  lockCatchallTargets: () => Promise.resolve(),

  changeStamp(db) {
    if (db.$client.inTransaction) return null;
    const s = stamps(db.$client);
    return `${s.dataVersion.get() as number}:${s.totalChanges.get() as number}`;
  },

  // The write connection's BEGIN IMMEDIATE already holds every row.
  forUpdate: (query) => query,

  changedRows: (result) => (result as Database.RunResult).changes,

  // Ties in created_at (sign-ins within one millisecond) go by insertion order.
  sessionInsertionOrder: sql.raw("rowid"),

  prepareRaw(db, query) {
    const { sql: text, params } = (db as unknown as DrizzleInternals).dialect.sqlToQuery(query);
    const statement = db.$client.prepare(text);
    const args = (values: Record<string, unknown>) => fillPlaceholders(params, values);
    return {
      rows: (values) => Promise.resolve(statement.raw().all(...args(values)) as unknown[][]),
      run: (values) => Promise.resolve(statement.run(...args(values)).changes),
    };
  },

  jsonArrayRows: (json) => sql`(SELECT value, key FROM json_each(${json}))`,

  all<T>(db: Db, query: SQL) {
    return Promise.resolve(db.all<T>(query));
  },

  run(db: Db, query: SQL) {
    return Promise.resolve(db.run(query).changes);
  },

  optimize(db) {
    // FTS5 answers a query by reading every segment of the index; this merges them into one (automerge only limits their number).
    db.$client.exec("INSERT INTO accounts_search(accounts_search) VALUES ('optimize')");
    // Lets SQLite refresh the statistics its planner uses, where they are stale (cheap when nothing changed).
    db.$client.pragma("optimize");
    return Promise.resolve();
  },

  analyze() {
    // SQLite looks members up by their primary key whatever its statistics say: nothing to refresh for one statement.
    return Promise.resolve();
  },

  pageRows(db, spec, domainId, q, force) {
    return Promise.resolve(sqlitePageRows(db, spec, domainId, q, force));
  },
};

// Another connection's commit (the write connection, the CLI, the mail server) moves PRAGMA data_version; this
// connection's own writes move total_changes().
const stampStatements = new WeakMap<
  Database.Database,
  { dataVersion: Database.Statement; totalChanges: Database.Statement }
>();
function stamps(conn: Database.Database) {
  let s = stampStatements.get(conn);
  if (!s) {
    s = {
      dataVersion: conn.prepare("PRAGMA data_version").pluck(),
      totalChanges: conn.prepare("SELECT total_changes()").pluck(),
    };
    stampStatements.set(conn, s);
  }
  return s;
}
