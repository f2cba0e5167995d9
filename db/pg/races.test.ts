// The write races on PostgreSQL, on a private cluster (e2e/support/pg-cluster.ts): at READ COMMITTED,
// without lockDomain these would race (two creates both seeing 9 of 10, an account and an alias both finding the
// name free). The same checks run on SQLite in races.test.ts.
import { describe, it, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";
import { runRaces } from "@/e2e/support/races";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

describe("PostgreSQL", () => {
  it("20 concurrent creates against a limit of 10 create exactly 10; one name as account and alias at once goes to one; a catchall set into a domain being removed does not outlive it", async () => {
    await runRaces();
  });
});
