// Held posts and copies at LMTP on SQLite (a temp file), with stand-ins for Postfix's sendmail and SMTP listener
// (e2e/support/list-lmtp-checks.ts); db/pg/list-lmtp.test.ts runs the same checks on PostgreSQL.
import { describe, vi } from "vitest";
import { servicesOnTempSqlite } from "@/e2e/support/services-on";
import { listLmtpCases } from "@/e2e/support/list-lmtp-checks";

vi.mock("server-only", () => ({}));

servicesOnTempSqlite();

describe("SQLite: held posts and copies at LMTP", () => {
  listLmtpCases({ lmtp: 29161, lmtp2: 29162, smtp: 29163 });
});
