// `domain remove` on PostgreSQL, a private cluster (e2e/support/domain-removal.ts; domain-remove.test.ts runs it on SQLite).
import { describe, it, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";
import { runBigDomainRemoval, runDomainRemoval } from "@/e2e/support/domain-removal";

vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

describe("domain remove on PostgreSQL", () => {
  it("switches off other domains' catchalls into it and takes its accounts out of the customer's forwards", async () => {
    await runDomainRemoval();
  });

  it("deletes a big domain's accounts a batch per transaction, the postmaster last, and records each mailbox for every host that may hold it", async () => {
    await runBigDomainRemoval();
  });
});
