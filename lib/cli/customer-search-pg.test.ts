// `customer list --search` on PostgreSQL, a private cluster (e2e/support/customer-search.ts; customer-search.test.ts runs it on SQLite).
import { describe, it, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";
import { runCustomerSearch } from "@/e2e/support/customer-search";

vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

describe("customer list --search on PostgreSQL", () => {
  it("finds customers by part of their name in any case, or of one of their domains, in the query", async () => {
    await runCustomerSearch();
  });
});
