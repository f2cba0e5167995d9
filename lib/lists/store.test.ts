// The list service's store, its one-click links and the policy service's reads on SQLite (a temp file);
// db/pg/list-store.test.ts runs the same checks (e2e/support/list-store-checks.ts) on PostgreSQL.
import { describe, it, vi } from "vitest";
import { servicesOnTempSqlite } from "@/e2e/support/services-on";
import { runListStoreChecks, runSpamPolicyChecks } from "@/e2e/support/list-store-checks";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

servicesOnTempSqlite();

describe("SQLite", () => {
  it("the list store: lists, members, bounces, tokens, held posts and one-click links", async () => {
    await runListStoreChecks();
  });
  it("the spam policy's reads: lists and switches of the account and its domain", async () => {
    await runSpamPolicyChecks();
  });
});
