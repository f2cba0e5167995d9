// The statements a service prepares once (lib/server/store/prepared.ts) inside a PostgreSQL transaction: the pool's
// own, bound to the transaction's connection (db/pg/dialect.ts, `statementsFrom`), not built again per transaction.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { setDialect } from "@/db/dialect";
import { domains } from "@/db/schema";
import { withTransaction } from "@/db/transaction";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";
import { prepared } from "@/lib/server/store/prepared";
import { openPostgres, type PgDb } from "./client";
import { pgDialect } from "./dialect";

vi.mock("server-only", () => ({}));

let cluster: PgCluster;
let pdb: PgDb;
let db: Db;

beforeAll(async () => {
  cluster = await startPgCluster();
  pdb = await openPostgres(cluster.url);
  db = setDialect(pdb, pgDialect) as unknown as Db;
}, 120_000);

afterAll(async () => {
  await pdb?.$client.end();
  await cluster?.stop();
});

const builtOn: Db[] = [];
const statements = prepared((db) => {
  builtOn.push(db);
  return {
    byName: db
      .select({ id: domains.id })
      .from(domains)
      .where(eq(domains.name, sql.placeholder("name")))
      .prepare(),
  };
});
/** A builder whose result closes over its handle: it must be built on the transaction's. */
const closures = prepared((db) => ({
  count: async (name: string) =>
    (await db.select({ id: domains.id }).from(domains).where(eq(domains.name, name))).length,
}));

describe("prepared statements in a PostgreSQL transaction", () => {
  it("run on the transaction's connection, built once on the pool", async () => {
    // Run on the pool first: node-postgres writes that call's callback into the statement's config.
    expect(await statements(db).byName.execute({ name: "tx.test" })).toEqual([]);
    await withTransaction(db, async (tx) => {
      await tx.insert(domains).values({ name: "tx.test" });
      // The transaction sees its own uncommitted row; the pool's connections do not.
      expect(await statements(tx).byName.execute({ name: "tx.test" })).toHaveLength(1);
      expect(await statements(db).byName.execute({ name: "tx.test" })).toEqual([]);
      // A savepoint's handle runs on the same connection.
      await withTransaction(tx, async (inner) =>
        expect(await statements(inner).byName.execute({ name: "tx.test" })).toHaveLength(1),
      );
      expect(await closures(tx).count("tx.test")).toBe(1);
      expect(await closures(db).count("tx.test")).toBe(0);
    });
    expect(builtOn).toEqual([db]);
    expect(await statements(db).byName.execute({ name: "tx.test" })).toHaveLength(1);
  });

  it("a rolled-back transaction's statements leave nothing behind", async () => {
    await expect(
      withTransaction(db, async (tx) => {
        await tx.insert(domains).values({ name: "gone.test" });
        expect(await statements(tx).byName.execute({ name: "gone.test" })).toHaveLength(1);
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await statements(db).byName.execute({ name: "gone.test" })).toEqual([]);
    expect(builtOn).toEqual([db]);
  });
});
