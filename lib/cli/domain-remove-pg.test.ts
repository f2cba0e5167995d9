// `domain remove` on PostgreSQL, a private cluster (e2e/support/domain-removal.ts; domain-remove.test.ts runs it on SQLite).
import { describe, it, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";
import { runDomainRemoval } from "@/e2e/support/domain-removal";

vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

describe("domain remove on PostgreSQL", () => {
  it("switches off other domains' catchalls into it and takes its accounts out of the customer's forwards", async () => {
    await runDomainRemoval();
  });
});
