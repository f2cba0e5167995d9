// The write races on PostgreSQL (issue 34), on a private cluster (e2e/support/pg-cluster.ts): at READ COMMITTED,
// without lockDomain these would race (two creates both seeing 9 of 10, an account and an alias both finding the
// name free). The same checks run on SQLite in races.test.ts.
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";
import { runRaces } from "@/e2e/support/races";

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
  it("20 concurrent creates against a limit of 10 create exactly 10; one name as account and alias at once goes to one", async () => {
    await runRaces();
  });
});
