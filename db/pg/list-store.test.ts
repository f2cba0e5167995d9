// The list service's store, its one-click links and the policy service's reads on PostgreSQL, on a private cluster
// (e2e/support/pg-cluster.ts): the same checks as store.test.ts (SQLite), so a statement written for one engine
// only (better-sqlite3 through `$client`) fails here.
import { describe, it, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";
import { runListStoreChecks, runSpamPolicyChecks } from "@/e2e/support/list-store-checks";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

describe("PostgreSQL", () => {
  it("the list store: lists, members, bounces, tokens, held posts and one-click links", async () => {
    await runListStoreChecks();
  });
  it("the spam policy's reads: lists and switches of the account and its domain", async () => {
    await runSpamPolicyChecks();
  });
});
