// `customer list --search` on SQLite (e2e/support/customer-search.ts; customer-search-pg.test.ts runs it on PostgreSQL).
import { describe, it, vi } from "vitest";
import { servicesOnTempSqlite } from "@/e2e/support/services-on";
import { runCustomerSearch } from "@/e2e/support/customer-search";

vi.mock("server-only", () => ({}));

servicesOnTempSqlite();

describe("customer list --search on SQLite", () => {
  it("finds customers by part of their name in any case, or of one of their domains, in the query", async () => {
    await runCustomerSearch();
  });
});
