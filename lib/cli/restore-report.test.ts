// What `db restore` tells the operator about the mail hosts (restore-report.ts): accounts the backup lacks, whose
// mailboxes stay on their hosts, and placements the backup changes. On a real SQLite file of the service's schema.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "@/db/client";
import { runCommand } from "./commands";
import { restoreReport, sqlitePlacements } from "./restore-report";

vi.mock("server-only", () => ({}));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-restore-report-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("db restore's report", () => {
  it("names the accounts created after the backup and the domains and accounts it places elsewhere", async () => {
    const file = path.join(dir, "mail.db");
    const db = openDatabase(file);
    const cli = (...argv: string[]) => runCommand(db, argv);
    await cli("mailserver", "host", "set", "imap1", "--address", "10.0.0.1");
    await cli("mailserver", "host", "set", "imap2", "--address", "10.0.0.2");
    await cli("domain", "add", "a.test", "--postmaster-password", "Admin-pass1", "--mail-host", "imap1");
    await cli("domain", "add", "b.test", "--postmaster-password", "Admin-pass1", "--mail-host", "imap1");
    const backup = sqlitePlacements(file);
    await cli("domain", "set-mail-host", "a.test", "--mail-host", "imap2");
    await cli("account", "set-mail-host", "postmaster@b.test", "--mail-host", "imap2");
    await cli("domain", "add", "c.test", "--postmaster-password", "Admin-pass1", "--mail-host", "imap2");
    const now = sqlitePlacements(file);
    db.$client.close();

    expect(restoreReport(now, backup)).toEqual([
      expect.stringMatching(/^1 account created after the backup is gone, and the mailboxes stay on their hosts\./),
      "  not in the backup: postmaster@c.test (mailbox on imap2)",
      expect.stringMatching(/^Placed on another host by the backup: .* \(docs\/mail-hosts\.md\):$/),
      "  domain a.test: imap2 -> imap1",
      "  account postmaster@b.test: imap2 -> imap1",
    ]);
    // Nothing changed, nothing said; a database without the service's tables (a new one) places nothing.
    expect(restoreReport(now, now)).toEqual([]);
    expect(sqlitePlacements(path.join(dir, "none.db"))).toEqual({ accounts: new Map(), domains: new Map() });
  });
});
