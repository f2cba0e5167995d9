// Held posts and copies at LMTP on PostgreSQL, on a private cluster: the same checks as lib/lists/lmtp-posts.test.ts
// (SQLite), e2e/support/list-lmtp-checks.ts.
import { describe, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";
import { listLmtpCases } from "@/e2e/support/list-lmtp-checks";

vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

describe("PostgreSQL: held posts and copies at LMTP", () => {
  listLmtpCases({ lmtp: 29171, lmtp2: 29172, smtp: 29173 });
});
