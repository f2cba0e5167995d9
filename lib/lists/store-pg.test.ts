// The list service's store, its one-click links and the policy service's reads on PostgreSQL, on a private cluster
// (e2e/support/pg-cluster.ts): the same checks as store.test.ts (SQLite), so a statement written for one engine
// only (better-sqlite3 through `$client`) fails here.
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { runListStoreChecks, runSpamPolicyChecks } from "@/e2e/support/list-store-checks";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

let cluster: PgCluster;

beforeAll(async () => {
  cluster = await startPgCluster({ port: process.env.PG_PORT ? Number(process.env.PG_PORT) : undefined });
  // Read when the services are first imported (db/schema.ts picks the engine's tables then).
  process.env.DATABASE_URL = cluster.url;
});

afterAll(async () => {
  const { closeDb } = await import("@/db/client");
  await closeDb();
  delete process.env.DATABASE_URL;
  await cluster?.stop();
});

describe("PostgreSQL", () => {
  it("the list store: lists, members, bounces, tokens, held posts and one-click links", async () => {
    await runListStoreChecks();
  });
  it("the spam policy's reads: lists and switches of the account and its domain", async () => {
    await runSpamPolicyChecks();
  });
});
