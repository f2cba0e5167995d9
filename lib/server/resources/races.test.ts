// The write races (limits and the shared namespace under concurrent writers) on SQLite: concurrent async writes of one process go through the write connection's
// queue (db/sqlite/dialect.ts), so the limit and the shared namespace hold. db/pg/races.test.ts runs them on PostgreSQL.
import { describe, it, vi } from "vitest";
import { servicesOnTempSqlite } from "@/e2e/support/services-on";
import { runRaces } from "@/e2e/support/races";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

servicesOnTempSqlite();

describe("SQLite", () => {
  it("20 concurrent creates against a limit of 10 create exactly 10; one name as account and alias at once goes to one; a catchall set into a domain being removed does not outlive it", async () => {
    await runRaces();
  });
});
