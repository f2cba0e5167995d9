// `domain remove` on SQLite (e2e/support/domain-removal.ts; domain-remove-pg.test.ts runs it on PostgreSQL).
import { describe, it, vi } from "vitest";
import { servicesOnTempSqlite } from "@/e2e/support/services-on";
import { runBigDomainRemoval, runDomainRemoval } from "@/e2e/support/domain-removal";

vi.mock("server-only", () => ({}));

servicesOnTempSqlite();

describe("domain remove on SQLite", () => {
  it("switches off other domains' catchalls into it and takes its accounts out of the customer's forwards", async () => {
    await runDomainRemoval();
  });

  it("deletes a big domain's accounts a batch per transaction, the postmaster last, and records each mailbox for every host that may hold it", async () => {
    await runBigDomainRemoval();
  });
});
